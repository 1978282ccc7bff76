import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api, apiSignIn, newestCode, PNG, typeCode } from './support';

/** Helpers of the operator console's journeys (web/e2e/console*.spec.ts). */

/** Signs in at /console with an e-mailed code, in the browser. */
export async function consoleSignIn(page: Page, request: APIRequestContext, email: string, path = '/console') {
  await page.goto(path);
  await page.getByLabel('E-mail').fill(email);
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Send code' }).click();
  await typeCode(page, 'Code', await newestCode(request, email, 'mailbox', since));
}

/** A new customer whose Tier 1 selfie waits for an operator (the sandbox's liveness check answers "review"). */
export async function customerAwaitingReview(request: APIRequestContext) {
  const email = `kyc-${randomUUID().slice(0, 8)}@example.com`;
  const token = await apiSignIn(request, email);
  await request.post('/sandbox/identity/liveness', { data: { email, outcome: 'review' } });
  const frames = [];
  for (let i = 0; i < 3; i++)
    frames.push(
      (
        await api(request, token, 'uploadKycFileBearerKYC', {
          fileName: `f${i}.png`,
          contentType: 'image/png',
          contentBase64: PNG.toString('base64'),
        })
      ).path,
    );
  const submitted = await api(request, token, 'submitTier3KycBearerKYC', { frames });
  expect(JSON.stringify(submitted)).toContain('pending');
  return { email, token };
}

/** With CONSOLE_SCREENSHOTS=<dir> (docs/images for the README), the page at 1280 px saved there as <name>.png. */
export async function readmeShot(page: Page, name: string) {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
  if (size) await page.setViewportSize(size);
}
