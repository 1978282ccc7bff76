import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { lastCode, type Harness, type TestUser } from './harness.js';

/** The sign-in routes the lock-out tests drive. */
export const SEND = '/_serverFn/sendLoginOtpPublicAuth';
export const VERIFY = '/_serverFn/verifyLoginOtpPublicAuth';
export const PIN_LOGIN = '/_serverFn/startPinLoginPublicAuth';

/** The device cookie an answer sets (issue #28), as a Cookie header value, or null. */
export function deviceCookieOf(res: LightMyRequestResponse): string | null {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const found = all.find((c) => c.startsWith('vtu_device='));
  return found ? found.split(';')[0] : null;
}

/** Signs in by e-mail code from `ip`, like signIn, and keeps the device cookie the answer sets. */
export async function signInOnDevice(
  h: Harness,
  opts: { email?: string; ip?: string; cookie?: string } = {},
): Promise<TestUser & { cookie: string }> {
  const email = opts.email ?? `d${randomUUID().slice(0, 8)}@example.com`;
  const ip = opts.ip ?? '192.0.2.200';
  const send = await h.app.inject({
    method: 'POST',
    url: '/_serverFn/sendLoginOtpPublicAuth',
    payload: { data: { email } },
    remoteAddress: ip,
  });
  if (send.statusCode !== 200) throw new Error(`sendLoginOtp failed: ${send.body}`);
  const res = await h.app.inject({
    method: 'POST',
    url: '/_serverFn/verifyLoginOtpPublicAuth',
    payload: { data: { email, code: await lastCode(h, email) } },
    remoteAddress: ip,
    headers: opts.cookie ? { cookie: opts.cookie } : {},
  });
  if (res.statusCode !== 200) throw new Error(`verifyLoginOtp failed: ${res.body}`);
  const cookie = deviceCookieOf(res);
  if (!cookie) throw new Error('no device cookie was set');
  const s = res.json().session;
  const claims = JSON.parse(Buffer.from(s.accessToken.split('.')[1], 'base64url').toString());
  return { id: s.user.id, email, token: s.accessToken, refreshToken: s.refreshToken, sessionId: claims.sid, cookie };
}

/** POSTs an operation's {data} envelope from an address, with optional token and device cookie. */
export function postFrom(h: Harness, url: string, data: Record<string, unknown>, from: { ip: string; cookie?: string; token?: string }) {
  const headers: Record<string, string> = {};
  if (from.cookie) headers.cookie = from.cookie;
  if (from.token) headers.authorization = `Bearer ${from.token}`;
  return h.app.inject({ method: 'POST', url, payload: { data }, remoteAddress: from.ip, headers });
}

/** The newest sign-in code sent to an address (security notices land in the same mailbox). */
export async function signInCode(h: Harness, to: string): Promise<string> {
  const items = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items as {
    subject: string;
    text: string;
  }[];
  return /(\d{6})/.exec(items.find((m) => m.subject === 'Your sign-in code')!.text)![1];
}
