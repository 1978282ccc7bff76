import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, createHarness, emailGrant, signIn, type Harness, type TestUser } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const S = (name: string, suffix = 'PublicAuth') => `/_serverFn/${name}${suffix}`;
// Random client addresses: per-IP limits may live in a shared Redis across runs.
const octet = () => Math.floor(Math.random() * 250) + 1;
const rndIp = () => `10.${octet()}.${octet()}.${octet()}`;
const responses: string[] = [];
async function c(
  method: 'GET' | 'POST',
  url: string,
  input?: Record<string, unknown>,
  opts: { token?: string; headers?: Record<string, string> } = {},
) {
  const res = await call(h, method, url, input, opts);
  responses.push(res.body);
  return res;
}

async function userWithPin(pin: string, username?: string): Promise<TestUser & { username: string }> {
  const u = await signIn(h);
  const name = username ?? `u_${u.id.slice(0, 8)}`;
  expect((await c('POST', S('updateProfile', 'BearerSettings'), { username: name }, { token: u.token })).statusCode).toBe(200);
  expect((await c('POST', S('setLoginPin', 'BearerAuth'), { pin }, { token: u.token, headers: await emailGrant(h, u) })).statusCode).toBe(
    200,
  );
  return { ...u, username: name };
}

describe('PIN login', () => {
  it('enrols, reports status, resolves and signs in with @username or e-mail', async () => {
    const u = await signIn(h);
    expect((await c('GET', S('getLoginPinStatus', 'BearerAuth'), undefined, { token: u.token })).json()).toEqual({
      ok: true,
      enrolled: false,
    });
    const name = `p_${u.id.slice(0, 6)}`;
    await c('POST', S('updateProfile', 'BearerSettings'), { username: name }, { token: u.token });

    const before = await c('POST', S('resolveLoginIdentifier'), { identifier: `@${name}` });
    // The same answer with and without a login PIN (and for no account at all: test/security/enumeration.test.ts).
    expect(before.json()).toEqual({ ok: true, identifierType: 'username', pinLoginAvailable: true });

    const headers = await emailGrant(h, u);
    const set = await c('POST', S('setLoginPin', 'BearerAuth'), { pin: '730481' }, { token: u.token, headers });
    expect(set.json()).toEqual({ ok: true, enrolled: true });
    expect((await c('GET', S('getLoginPinStatus', 'BearerAuth'), undefined, { token: u.token })).json().enrolled).toBe(true);

    const resolved = await c('POST', S('resolveLoginIdentifier'), { identifier: `@${name.toUpperCase()}` });
    expect(resolved.json()).toEqual({ ok: true, identifierType: 'username', pinLoginAvailable: true });
    // Only whether PIN login can be offered: no e-mail, id or mask.
    expect(resolved.body).not.toContain(u.email);
    expect(resolved.body).not.toContain(u.id);

    const byName = await c('POST', S('startPinLogin'), { identifier: `@${name}`, pin: '730481' });
    expect(byName.statusCode).toBe(200);
    expect(byName.json().session).toMatchObject({ tokenType: 'bearer', user: { id: u.id, email: u.email, username: name } });
    const me = await c('GET', S('getProfile', 'BearerSettings'), undefined, { token: byName.json().session.accessToken });
    expect(me.json().profile.id).toBe(u.id);

    const byEmail = await c('POST', S('startPinLogin'), { identifier: u.email.toUpperCase(), pin: '730481' });
    expect(byEmail.statusCode).toBe(200);

    const off = await c('POST', S('disableLoginPin', 'BearerAuth'), {}, { token: u.token, headers });
    expect(off.json()).toEqual({ ok: true, enrolled: false });
    const after = await c('POST', S('startPinLogin'), { identifier: `@${name}`, pin: '730481' });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('INVALID_CREDENTIALS');
  });

  it('answers an unknown identifier exactly like a wrong PIN', async () => {
    const u = await userWithPin('640193');
    const wrong = await c('POST', S('startPinLogin'), { identifier: `@${u.username}`, pin: '111111' });
    const unknown = await c('POST', S('startPinLogin'), { identifier: '@nobody_here_x', pin: '111111' });
    const unknownEmail = await c('POST', S('startPinLogin'), { identifier: 'ghost@example.com', pin: '111111' });
    for (const r of [wrong, unknown, unknownEmail]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({
        ok: false,
        error: { code: 'INVALID_CREDENTIALS', message: 'Wrong identifier or PIN; 4 tries left before it locks', details: { triesLeft: 4 } },
      });
    }
    // Unknown identifiers lock after five tries too, so the lock does not reveal which accounts exist.
    for (let i = 0; i < 3; i++) await c('POST', S('startPinLogin'), { identifier: '@nobody_here_x', pin: '111111' });
    const locked = await c('POST', S('startPinLogin'), { identifier: '@nobody_here_x', pin: '111111' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('PIN_LOCKED');
    expect(locked.headers['retry-after']).toBe('900');
  });

  it('locks after 5 wrong PINs; the lock expires on the clock and doubles on repeat', async () => {
    const u = await userWithPin('519372');
    const login = (pin: string) => c('POST', S('startPinLogin'), { identifier: `@${u.username}`, pin });
    for (let i = 0; i < 4; i++) expect((await login('000000')).statusCode).toBe(401);
    const fifth = await login('000000');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error.code).toBe('PIN_LOCKED');
    expect(fifth.headers['retry-after']).toBe('900');
    // Locked: even the right PIN is refused until the lock ends.
    const during = await login('519372');
    expect(during.statusCode).toBe(429);
    expect(Number(during.headers['retry-after'])).toBeLessThanOrEqual(900);

    h.clock.advance(15 * 60_000 + 1000);
    expect((await login('519372')).statusCode).toBe(200);

    for (let i = 0; i < 4; i++) await login('000000');
    const second = await login('000000');
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('1800');
    h.clock.advance(15 * 60_000 + 1000);
    expect((await login('519372')).statusCode).toBe(429);
    h.clock.advance(15 * 60_000);
    expect((await login('519372')).statusCode).toBe(200);
  });

  it('e-mails the owner once when failures pile up, and throttles one IP hammering one identifier', async () => {
    const u = await userWithPin('802146');
    const mails = async () => {
      await h.app.services.jobs.drain();
      return (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(u.email)}` })).json().items as {
        subject: string;
      }[];
    };
    const alertsBefore = (await mails()).filter((m) => m.subject.includes('Failed sign-in')).length;
    const [ipA, ipB, ipC] = [rndIp(), rndIp(), rndIp()];
    const from = (ip: string, body: unknown) =>
      h.app.inject({ method: 'POST', url: '/api/public/login-failed', payload: body as Record<string, unknown>, remoteAddress: ip });
    for (let i = 0; i < 5; i++) {
      const r = await from(ipA, { identifier: u.email, method: 'email_otp', reason: 'wrong code' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ ok: true });
    }
    // Unknown identifiers get the same answer.
    expect((await from(ipB, { data: { identifier: '@no_such_user' } })).json()).toEqual({ ok: true });
    const alerts = (await mails()).filter((m) => m.subject.includes('Failed sign-in'));
    expect(alerts.length).toBe(alertsBefore + 1);
    await from(ipA, { identifier: u.email });
    expect((await mails()).filter((m) => m.subject.includes('Failed sign-in')).length).toBe(alertsBefore + 1);

    // 10 failures from one IP for one identifier pause PIN login from that IP only.
    for (let i = 0; i < 4; i++) await from(ipA, { identifier: u.email });
    const blocked = await h.app.inject({
      method: 'POST',
      url: S('startPinLogin'),
      payload: { data: { identifier: u.email, pin: '802146' } },
      remoteAddress: ipA,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
    const elsewhere = await h.app.inject({
      method: 'POST',
      url: S('startPinLogin'),
      payload: { data: { identifier: u.email, pin: '802146' } },
      remoteAddress: ipC,
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('login-failed validates its small body and is strictly rate limited per IP', async () => {
    const ip0 = rndIp();
    const post = (payload: unknown, ip = ip0, headers: Record<string, string> = {}) =>
      h.app.inject({ method: 'POST', url: '/api/public/login-failed', payload: payload as string, remoteAddress: ip, headers });
    for (const bad of [
      {},
      { identifier: 'not an identifier!' },
      { identifier: 'a@b.co', extra: 1 },
      { identifier: 'a@b.co', reason: 'x'.repeat(201) },
      [1, 2],
    ]) {
      const r = await post(bad, rndIp());
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await post('{not json', rndIp(), { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await post({ identifier: 'a@b.co', reason: 'y'.repeat(3000) }, rndIp())).statusCode).toBe(413);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await post({ identifier: 'someone@example.com' })).statusCode);
    expect(codes.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('validates inputs and requires a token where the spec says Bearer', async () => {
    for (const [name, suffix, method, input] of [
      ['getLoginPinStatus', 'BearerAuth', 'GET', undefined],
      ['setLoginPin', 'BearerAuth', 'POST', { pin: '123456' }],
      ['disableLoginPin', 'BearerAuth', 'POST', {}],
      ['isPhoneVerified', 'BearerAuth', 'POST', { phone: '08031234567' }],
      ['notifyLogin', 'BearerAuth', 'POST', {}],
    ] as const) {
      expect((await c(method, S(name, suffix), input)).statusCode, name).toBe(401);
    }
    const u = await signIn(h);
    expect((await c('GET', S('getLoginPinStatus', 'BearerAuth'), { userId: u.id }, { token: u.token })).statusCode).toBe(400);
    for (const [name, suffix, input, token] of [
      ['setLoginPin', 'BearerAuth', { pin: '1234' }, u.token],
      ['setLoginPin', 'BearerAuth', { pin: 'abcdef' }, u.token],
      ['setLoginPin', 'BearerAuth', {}, u.token],
      ['startPinLogin', 'PublicAuth', { identifier: '@ok_name', pin: '12345' }, undefined],
      ['startPinLogin', 'PublicAuth', { identifier: 'bad identifier', pin: '123456' }, undefined],
      ['startPinLogin', 'PublicAuth', { identifier: '@ok_name' }, undefined],
      ['resolveLoginIdentifier', 'PublicAuth', { identifier: '' }, undefined],
      ['resolveLoginIdentifier', 'PublicAuth', { identifier: 'x'.repeat(300) + '@example.com' }, undefined],
      ['disableLoginPin', 'BearerAuth', { unexpected: 1 }, u.token],
    ] as const) {
      const r = await c('POST', S(name, suffix), input as Record<string, unknown>, { token });
      expect(r.statusCode, `${name} ${JSON.stringify(input)}`).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('notifyLogin records one event per session and e-mails an alert with an in-app notification', async () => {
    const u = await signIn(h);
    const r = await c(
      'POST',
      S('notifyLogin', 'BearerAuth'),
      { device: 'Pixel 8', method: 'email_otp', sessionId: u.sessionId },
      { token: u.token },
    );
    expect(r.json()).toEqual({ ok: true, recorded: true, alerted: true });
    const again = await c('POST', S('notifyLogin', 'BearerAuth'), {}, { token: u.token });
    expect(again.json()).toEqual({ ok: true, recorded: false, alerted: false });
    await h.app.services.jobs.drain();
    const box = (await h.app.inject({ method: 'GET', url: `/sandbox/mailbox?to=${encodeURIComponent(u.email)}` })).json().items;
    expect(box.filter((m: { subject: string }) => m.subject === 'New sign-in to your account')).toHaveLength(1);
    expect(box[0].subject).toBe('New sign-in to your account');
    expect(box[0].text).toContain('Pixel 8');
    const ev = await h.app.services.db.execute(sql`SELECT count(*)::int AS n FROM login_events WHERE user_id = ${u.id} AND kind = 'login'`);
    expect((ev as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
    const n = await h.app.services.db.execute(
      sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${u.id} AND kind = 'login_alert'`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);

    const other = await signIn(h);
    const foreign = await c('POST', S('notifyLogin', 'BearerAuth'), { sessionId: other.sessionId }, { token: u.token });
    expect(foreign.statusCode).toBe(404);
    const bad = await c('POST', S('notifyLogin', 'BearerAuth'), { sessionId: 'nope', method: 'has spaces' }, { token: u.token });
    expect(bad.statusCode).toBe(400);
  });

  it('no PIN appears in any response or log line', () => {
    const pins = ['730481', '640193', '519372', '802146'];
    const text = responses.join('\n') + '\n' + h.logs.join('\n');
    for (const p of pins) expect(text).not.toMatch(new RegExp(`(?<![\\d.])${p}(?!\\d)`));
  });
});
