import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createHarness, lastCode, type Harness } from '../helpers/harness.js';

/** the web app's refresh token travels only in an HttpOnly, SameSite=Strict, path-scoped cookie. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const COOKIE_MODE = { 'x-session-transport': 'cookie' };

async function cookieSignIn() {
  const email = `c${randomUUID().slice(0, 8)}@example.com`;
  await h.app.inject({ method: 'POST', url: '/_serverFn/sendLoginOtpPublicAuth', payload: { data: { email } } });
  const code = await lastCode(h, email);
  return h.app.inject({
    method: 'POST',
    url: '/_serverFn/verifyLoginOtpPublicAuth',
    payload: { data: { email, code } },
    headers: COOKIE_MODE,
  });
}

/** The refresh-token cookies of an answer (a sign-in also sets the known-device cookie, tested in test/security). */
const refreshCookies = (setCookie: string | string[] | undefined) =>
  ([] as string[]).concat(setCookie ?? []).filter((c) => c.startsWith('vtu_refresh='));

function cookieValue(setCookie: string | string[] | undefined): string {
  const first = refreshCookies(setCookie)[0] ?? '';
  return /^vtu_refresh=([^;]*)/.exec(first)?.[1] ?? '';
}

describe('cookie transport for refresh tokens', () => {
  it('sign-in puts the refresh token in HttpOnly SameSite=Strict cookies scoped to refresh and sign-out, not in the body', async () => {
    const res = await cookieSignIn();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.session.accessToken).toBeTruthy();
    expect(body.session.refreshToken).toBe('');
    const cookies = refreshCookies(res.headers['set-cookie']);
    expect(cookies).toHaveLength(2);
    expect(cookies.map((c) => /Path=([^;]+)/.exec(c)?.[1]).sort()).toEqual([
      '/_serverFn/refreshSessionPublicAuth',
      '/_serverFn/signOutBearerAuth',
    ]);
    for (const c of cookies) {
      expect(c).toMatch(/HttpOnly/);
      expect(c).toMatch(/SameSite=Strict/);
      expect(c).toMatch(/Max-Age=\d+/);
    }
    expect(cookieValue(cookies).length).toBeGreaterThan(10);
  });

  it('refresh reads the cookie and rotates it; the old cookie is then refused', async () => {
    const first = cookieValue((await cookieSignIn()).headers['set-cookie']);
    const refreshed = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/refreshSessionPublicAuth',
      payload: { data: {} },
      headers: { ...COOKIE_MODE, cookie: `vtu_refresh=${first}` },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().session.refreshToken).toBe('');
    const second = cookieValue(refreshed.headers['set-cookie']);
    expect(second).not.toBe(first);
    const reuse = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/refreshSessionPublicAuth',
      payload: { data: {} },
      headers: { ...COOKIE_MODE, cookie: `vtu_refresh=${first}` },
    });
    expect(reuse.statusCode).toBe(401);
  });

  it('without the cookie, cookie mode answers 401 (not a validation error) and never 500', async () => {
    for (const cookie of [undefined, 'vtu_refresh=', 'vtu_refresh=%00%ff;;', 'other=1']) {
      const r = await h.app.inject({
        method: 'POST',
        url: '/_serverFn/refreshSessionPublicAuth',
        payload: { data: {} },
        headers: { ...COOKIE_MODE, ...(cookie ? { cookie } : {}) },
      });
      expect(r.statusCode).toBe(401);
      expect(r.json().error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('sign-out clears both cookies; API clients without the header keep JSON tokens and get no refresh cookie', async () => {
    const signedIn = await cookieSignIn();
    const out = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/signOutBearerAuth',
      payload: { data: {} },
      headers: { ...COOKIE_MODE, authorization: `Bearer ${signedIn.json().session.accessToken}` },
    });
    expect(out.statusCode).toBe(200);
    const cleared = refreshCookies(out.headers['set-cookie']);
    expect(cleared).toHaveLength(2);
    for (const c of cleared) expect(c).toMatch(/^vtu_refresh=; .*Max-Age=0/);

    const email = `j${randomUUID().slice(0, 8)}@example.com`;
    await h.app.inject({ method: 'POST', url: '/_serverFn/sendLoginOtpPublicAuth', payload: { data: { email } } });
    const json = await h.app.inject({
      method: 'POST',
      url: '/_serverFn/verifyLoginOtpPublicAuth',
      payload: { data: { email, code: await lastCode(h, email) } },
    });
    expect(json.json().session.refreshToken.length).toBeGreaterThan(10);
    expect(refreshCookies(json.headers['set-cookie'])).toEqual([]);
  });
});
