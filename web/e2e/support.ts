import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import * as ops from '../src/api/operations';

/** Helpers for the journeys: sandbox mailboxes, the operator's API calls, axe and screenshots at two widths. */
export async function newestCode(
  request: APIRequestContext,
  to: string,
  channel: 'mailbox' | 'sms' = 'mailbox',
  after = 0,
): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const box = await (await request.get(`/sandbox/${channel}?to=${encodeURIComponent(to)}`)).json();
    // The newest message since `after` that carries a code: notices (a PIN set, a sign-in alert) can arrive after it.
    const code = box.items
      .filter((m: { createdAt: string }) => Date.parse(m.createdAt) > after)
      // A code's message in any of the customer's languages (src/kernel/code-texts.ts): "code is", "ita ce", "na", "ni".
      .map((m: { text: string }) => /(?:code is|ita ce|code na|ni) (\d{6})\b/.exec(m.text)?.[1])
      .find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${to}`);
}

/** Types a 6-digit code into a Mantine PinInput (focus moves box to box; the last digit submits). */
export async function typeCode(page: Page, groupLabel: string, code: string) {
  await page.getByRole('group', { name: groupLabel }).getByRole('textbox', { name: 'Code digit 1 of 6' }).click();
  await page.keyboard.type(code, { delay: 30 });
}

export async function apiSignIn(request: APIRequestContext, email: string): Promise<string> {
  const since = Date.now() - 1;
  await request.post(ops.sendLoginOtp, { data: { data: { email } } });
  const code = await newestCode(request, email, 'mailbox', since);
  const r = await (await request.post(ops.verifyLoginOtp, { data: { data: { email, code } } })).json();
  return r.session.accessToken as string;
}

/**
 * An operator's token, signed in once per worker. Each spec file has its own operator (ADMIN_EMAILS in
 * playwright.config.ts): a worker restarted after a failure signs in again, and a second e-mail code for the same
 * address within the cooldown would be refused.
 */
const admins = new Map<string, Promise<string>>();
export function adminToken(request: APIRequestContext, email: string): Promise<string> {
  if (!admins.has(email)) admins.set(email, apiSignIn(request, email));
  return admins.get(email)!;
}

export async function api(
  request: APIRequestContext,
  token: string,
  name: string,
  data: Record<string, unknown> = {},
  method: 'GET' | 'POST' = 'POST',
) {
  const res =
    method === 'GET'
      ? await request.get(`/_serverFn/${name}?${new URLSearchParams(data as Record<string, string>)}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      : await request.post(`/_serverFn/${name}`, { data: { data }, headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  if (!body.ok) throw new Error(`${name}: ${JSON.stringify(body)}`);
  return body;
}

/** The operator approves the newest pending KYC submission of `email` for `tier` (through the API). */
export async function approveKyc(request: APIRequestContext, adminToken: string, email: string, tier: number) {
  for (let i = 0; i < 50; i++) {
    const list = await api(
      request,
      adminToken,
      'adminListKycSubmissionsBearerAdmin',
      { status: 'pending', tier: String(tier), limit: '100' },
      'GET',
    );
    const mine = list.items.find((s: { email: string }) => s.email === email);
    if (mine) return api(request, adminToken, 'adminReviewKycBearerAdmin', { submissionId: mine.id, decision: 'approve' });
    // Tier 1 is usually approved already: the sandbox's liveness check passes unless told otherwise.
    const done = await api(
      request,
      adminToken,
      'adminListKycSubmissionsBearerAdmin',
      { status: 'approved', tier: String(tier), limit: '100' },
      'GET',
    );
    if (done.items.some((s: { email: string }) => s.email === email)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no pending tier ${tier} submission for ${email}`);
}

/** axe-core: no serious or critical violation on the screen as it is now. */
export async function expectAccessible(page: Page, screen: string) {
  // A dialog or menu still fading in has colours between its start and its end: axe would measure the contrast of a
  // frame nobody reads. Wait for running transitions and animations to finish first.
  // (A spinner's endless animation is not waited for.)
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 5_000 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${screen}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'vtu-e2e-screenshots');

/** Screenshots at 360 px and 1280 px (kept out of git), and no horizontal scrolling at 360 px. */
export async function checkWidths(page: Page, screen: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    await page.screenshot({ path: path.join(SHOTS, `${screen}-${width}.png`), fullPage: true });
    if (width === 360) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${screen} scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
    }
  }
  if (original) await page.setViewportSize(original);
}

/** A small valid PNG (a KYC slip or document upload). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAGklEQVR4nGNkaGAgCTCRpnxUw6iGUQ1DSAMAQC4BEeR+zkgAAAAASUVORK5CYII=',
  'base64',
);
