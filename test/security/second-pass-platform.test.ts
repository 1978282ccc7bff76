import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { isPublicAddress } from '../../src/lib/public-address.js';
import { NOT_ME_PATH } from '../../src/modules/security/credential-notices.js';
import { call, createHarness, lastCode, signIn, type Harness } from '../helpers/harness.js';
import { PRODUCTION } from '../helpers/production-env.js';

/**
 * Issue #28, second pass, the platform items: forwarded addresses under a configured proxy trust, public operations'
 * per-address budgets whatever token comes along, the login code when the mail server is down, the top-up's
 * callback origin, IPv6 forms embedding a private IPv4 address, and the pages' content security and permissions
 * policies.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { TOPUP_CALLBACK_ORIGINS: 'https://app.example.com' } });
});
afterAll(async () => h.close());

/** getOtpCooldown is public with the `auth` class: 20 a minute per client address. */
const cooldown = (harness: Harness, opts: { remoteAddress: string; forwardedFor?: string; token?: string }) =>
  harness.app.inject({
    method: 'POST',
    url: '/_serverFn/getOtpCooldownPublicAuth',
    remoteAddress: opts.remoteAddress,
    headers: {
      ...(opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    payload: { data: { email: 'budget@example.com' } },
  });

const spoof = () => `${1 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;

describe('TRUST_PROXY: the right-most address not written by a trusted proxy', () => {
  it('reads a hop count or proxy addresses/CIDRs; `true` is refused in production by name', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.0.1,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.0.1', 'fd00::/8']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: .*not an address: 10\.0\.0\.0\/33/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...PRODUCTION, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true believes the left-most X-Forwarded-For/);
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  for (const [form, trust, proxy] of [
    ['one hop', '1', '10.9.9.9'],
    ['a proxy CIDR', '10.0.0.0/8', '10.1.2.3'],
  ] as const) {
    it(`${form}: a spoofed left part of X-Forwarded-For never buys a fresh budget`, async () => {
      const ph = await createHarness({ env: { TRUST_PROXY: trust } });
      try {
        const statuses: number[] = [];
        // The proxy appends the address it saw; the client wrote everything before it.
        for (let i = 0; i < 22; i++)
          statuses.push((await cooldown(ph, { remoteAddress: proxy, forwardedFor: `${spoof()}, ${spoof()}, 198.51.100.23` })).statusCode);
        expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
        expect(statuses.slice(20)).toEqual([429, 429]);
        // Another client behind the same proxy has its own budget.
        expect((await cooldown(ph, { remoteAddress: proxy, forwardedFor: `${spoof()}, 198.51.100.24` })).statusCode).toBe(200);
        if (form === 'a proxy CIDR') {
          // A client that is not a listed proxy is judged by its own address, whatever it forwards.
          const direct: number[] = [];
          for (let i = 0; i < 21; i++)
            direct.push((await cooldown(ph, { remoteAddress: '198.51.100.30', forwardedFor: `${spoof()}, 10.0.0.1` })).statusCode);
          expect(direct[20]).toBe(429);
        }
      } finally {
        await ph.close();
      }
    });
  }
});

describe("a public operation's budget is the address's, token or not", () => {
  it('a throw-away account token does not buy a fresh per-address budget', async () => {
    const address = '198.51.100.40';
    for (let i = 0; i < 20; i++) expect((await cooldown(h, { remoteAddress: address })).statusCode).toBe(200);
    const throwAway = await signIn(h);
    const withToken = await cooldown(h, { remoteAddress: address, token: throwAway.token });
    expect(withToken.statusCode).toBe(429);
    expect(withToken.json().error.code).toBe('RATE_LIMITED');
    // The account's own (Bearer) operations keep the account's budget.
    expect((await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: throwAway.token })).statusCode).toBe(200);
  });
});

describe('production start-up refusals', () => {
  it('memory:// and pglite: are refused as DATABASE_URL in production, by name', () => {
    for (const url of ['memory://', 'pglite:/var/lib/vtu']) {
      expect(() => loadConfig({ ...PRODUCTION, DATABASE_URL: url }), url).toThrow(/DATABASE_URL must be a PostgreSQL URL/);
    }
    expect(loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgresql://db/x' }).production).toBe(true);
  });
});

describe('sendLoginOtp while the mail server is down', () => {
  const outage = (down: boolean) => h.app.inject({ method: 'POST', url: '/sandbox/mail/outage', payload: { down } });
  const mailbox = async (to: string) => (await h.app.inject({ url: `/sandbox/mailbox?to=${encodeURIComponent(to)}` })).json().items;

  it('answers 503 EMAIL_UNAVAILABLE, and the outbox mails the code once the server is back; the code signs in', async () => {
    const email = `smtp${randomUUID().slice(0, 8)}@example.com`;
    expect((await outage(true)).statusCode).toBe(200);
    try {
      const r = await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email });
      expect(r.statusCode).toBe(503);
      expect(r.json().error.code).toBe('EMAIL_UNAVAILABLE');
      expect(Number(r.headers['retry-after'])).toBe(60);
      // The outbox tries while the server is still down: nothing arrives, the job waits for its backoff.
      await h.app.services.jobs.drain();
      expect(await mailbox(email)).toEqual([]);
    } finally {
      await outage(false);
    }
    h.clock.advance(30_000);
    await h.app.services.jobs.drain();
    expect(await mailbox(email)).toHaveLength(1);
    const code = await lastCode(h, email);
    const signedIn = await call(h, 'POST', '/_serverFn/verifyLoginOtpPublicAuth', { email, code });
    expect(signedIn.statusCode).toBe(200);
  });

  it('a queued code that expired before the server came back is dropped, not sent late', async () => {
    const email = `late${randomUUID().slice(0, 8)}@example.com`;
    await outage(true);
    try {
      expect((await call(h, 'POST', '/_serverFn/sendLoginOtpPublicAuth', { email })).statusCode).toBe(503);
    } finally {
      await outage(false);
    }
    h.clock.advance(11 * 60_000);
    await h.app.services.jobs.drain();
    expect(await mailbox(email)).toEqual([]);
  });
});

describe('startProcessorTopup callbackUrl: our origin or the operator allow-list only', () => {
  it('refuses another site with 400 naming callbackUrl; accepts PUBLIC_URL and TOPUP_CALLBACK_ORIGINS', async () => {
    const u = await signIn(h);
    const start = (callbackUrl: string) =>
      call(h, 'POST', '/_serverFn/startProcessorTopupBearerPayments', { amount: 1000, email: u.email, callbackUrl }, { token: u.token });
    for (const foreign of ['https://evil.example/paid', 'http://app.example.com/paid', 'https://app.example.com.evil.example/x']) {
      const r = await start(foreign);
      expect(r.statusCode, foreign).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
      expect(r.json().error.message).toMatch(/^Callback URL must be on /);
      expect(r.json().error.issues[0].path).toBe('callbackUrl');
    }
    expect((await start(`${h.config.publicUrl}/fund/return`)).statusCode).toBe(200);
    expect((await start('https://app.example.com/fund/return')).statusCode).toBe(200);
  });

  it('TOPUP_CALLBACK_ORIGINS takes bare origins only', () => {
    expect(
      loadConfig({ PUBLIC_URL: 'https://api.example.com/', TOPUP_CALLBACK_ORIGINS: 'https://App.example.com, http://localhost:5173' })
        .topupCallbackOrigins,
    ).toEqual(['https://api.example.com', 'https://app.example.com', 'http://localhost:5173']);
    expect(() => loadConfig({ TOPUP_CALLBACK_ORIGINS: 'https://app.example.com/return' })).toThrow(/TOPUP_CALLBACK_ORIGINS/);
    expect(() => loadConfig({ TOPUP_CALLBACK_ORIGINS: 'javascript:alert(1)' })).toThrow(/TOPUP_CALLBACK_ORIGINS/);
  });
});

describe('push addresses: IPv6 forms that embed a non-public IPv4 address', () => {
  it('refuses the IPv4-translated form and the other embeddings of private addresses', () => {
    for (const ip of [
      '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1 (RFC 2765), the finding
      '::ffff:0:127.0.0.1',
      '::ffff:0:a00:1',
      '::ffff:0:a9fe:a9fe',
      '::7f00:1', // IPv4-compatible
      '::a00:5',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:c0a8:101::1', // 6to4 of 192.168.1.1
      '2002:a9fe:a9fe::', // 6to4 of the metadata address
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo (its client part encodes 127.0.0.1): refused whole
      '2001::1',
      '64:ff9b:1:7f00:1::', // local-use NAT64 with the /48 layout: refused whole
      '64:ff9b:1::808:808',
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['::ffff:0:808:808', '2002:808:808::1', '::ffff:8.8.8.8', '2606:4700:4700::1111'])
      expect(isPublicAddress(ip), ip).toBe(true);
  });

  it('savePushSubscription refuses https://[::ffff:0:7f00:1]/', async () => {
    const u = await signIn(h);
    const r = await call(
      h,
      'POST',
      '/_serverFn/savePushSubscriptionBearerPush',
      {
        endpoint: 'https://[::ffff:0:7f00:1]/sub/1',
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
      { token: u.token },
    );
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/public push service/);
  });
});

describe('content security and permissions policies', () => {
  it('every answer carries a Permissions-Policy that allows the camera to our own origin only', async () => {
    for (const url of ['/healthz', '/api/openapi.json', '/docs/', '/no/such/path', `${NOT_ME_PATH}?token=x`]) {
      const r = await h.app.inject({ url });
      expect(r.headers['permissions-policy'], url).toContain('camera=(self)');
      expect(r.headers['permissions-policy'], url).toContain('microphone=()');
      expect(r.headers['permissions-policy'], url).toContain('geolocation=()');
    }
    const op = await call(h, 'POST', '/_serverFn/getOtpCooldownPublicAuth', { email: 'pp@example.com' });
    expect(op.headers['permissions-policy']).toContain('payment=()');
  });

  it('/docs and its files answer with a script-src self policy; the not-me page forbids scripts altogether', async () => {
    for (const url of ['/docs/', '/docs/static/swagger-initializer.js', '/docs/json']) {
      const csp = String((await h.app.inject({ url })).headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain('unsafe-inline');
    }
    const page = await h.app.inject({ url: `${NOT_ME_PATH}?token=nme_${'a'.repeat(30)}` });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    const posted = await h.app.inject({
      method: 'POST',
      url: NOT_ME_PATH,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=nme_${'b'.repeat(30)}`,
    });
    expect(posted.headers['content-type']).toContain('text/html');
    expect(posted.headers['content-security-policy']).toContain("default-src 'none'");
    // The API's JSON answers need no policy of their own.
    expect((await h.app.inject({ url: '/healthz' })).headers['content-security-policy']).toBeUndefined();
  });

  // Swagger UI rendering the operations under this policy in a real browser: web/e2e/api-docs.spec.ts.
});
