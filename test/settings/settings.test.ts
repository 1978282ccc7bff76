import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { call, createHarness, emailGrant, expectLedgerOk, fundWallet, signIn, type Harness } from '../helpers/harness.js';
import { enrollTotp, grantFor } from '../security/rfc6238.js';
import { toKobo } from '../../src/kernel/money.js';
import { DEFAULT_PREFERENCES, readPreferences } from '../../src/modules/settings/preferences.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const S = (name: string) => `/_serverFn/${name}BearerSettings`;
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
const q = async <T>(query: ReturnType<typeof sql>) => (await h.app.services.db.execute(query)) as unknown as { rows: T[] };

describe('transaction PIN', () => {
  it('sets the first PIN, changes it with currentPin, and the PIN gate accepts only the new one', async () => {
    const u = await signIn(h);
    expect((await c('GET', S('hasTransactionPin'), undefined, { token: u.token })).json()).toEqual({ ok: true, hasPin: false });
    // Setting the PIN that spends the wallet is a credential change: a stolen access token alone cannot (once the
    // session is 10 minutes old; a first PIN right after the sign-in code: test/settings/first-pin.test.ts).
    h.clock.advance(10 * 60_000);
    const bare = await c('POST', S('setTransactionPinFn'), { pin: '4821' }, { token: u.token });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error.code).toBe('STEP_UP_REQUIRED');
    const headers = await emailGrant(h, u);
    const as = { token: u.token, headers };
    expect((await c('POST', S('setTransactionPinFn'), { pin: '4821' }, as)).json()).toEqual({ ok: true, hasPin: true });
    expect((await c('GET', S('hasTransactionPin'), undefined, { token: u.token })).json().hasPin).toBe(true);

    const noCurrent = await c('POST', S('setTransactionPinFn'), { pin: '9034' }, as);
    expect(noCurrent.statusCode).toBe(400);
    expect(noCurrent.json().error.code).toBe('VALIDATION_FAILED');
    const wrong = await c('POST', S('setTransactionPinFn'), { pin: '9034', currentPin: '1111' }, as);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_PIN');
    const ok = await c('POST', S('setTransactionPinFn'), { pin: '9034', currentPin: '4821' }, as);
    expect(ok.statusCode).toBe(200);

    await expect(h.app.services.pins.verify(u.id, 'transaction', '4821')).rejects.toMatchObject({ code: 'INVALID_PIN' });
    await expect(h.app.services.pins.verify(u.id, 'transaction', '9034')).resolves.toBeUndefined();
  });

  it('wrong currentPin five times locks the PIN (429 PIN_LOCKED with Retry-After)', async () => {
    const u = await signIn(h);
    const as = { token: u.token, headers: await emailGrant(h, u) };
    await c('POST', S('setTransactionPinFn'), { pin: '5820' }, as);
    for (let i = 0; i < 4; i++) await c('POST', S('setTransactionPinFn'), { pin: '1357', currentPin: '0000' }, as);
    const locked = await c('POST', S('setTransactionPinFn'), { pin: '1357', currentPin: '0000' }, as);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('PIN_LOCKED');
    expect(locked.headers['retry-after']).toBe('900');
    expect((await c('POST', S('setTransactionPinFn'), { pin: '1357', currentPin: '5820' }, as)).statusCode).toBe(429);
  });

  it('with 2FA on, a session opened by e-mail code needs the authenticator for the grant', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    const noGrant = await c('POST', S('setTransactionPinFn'), { pin: '6402' }, { token: u.token });
    expect(noGrant.statusCode).toBe(403);
    expect(noGrant.json().error.code).toBe('STEP_UP_REQUIRED');
    const grant = await grantFor(h, u, secret);
    const as = { token: u.token, headers: { 'x-grant-token': grant } };
    expect((await c('POST', S('setTransactionPinFn'), { pin: '6402' }, as)).statusCode).toBe(200);
    const ok = await c('POST', S('setTransactionPinFn'), { pin: '7713', currentPin: '6402' }, as);
    expect(ok.statusCode).toBe(200);
  });

  it('validates input and requires a token', async () => {
    expect((await c('GET', S('hasTransactionPin'))).statusCode).toBe(401);
    expect((await c('POST', S('setTransactionPinFn'), { pin: '1234' })).statusCode).toBe(401);
    const u = await signIn(h);
    const junkQuery = await c('GET', S('hasTransactionPin'), { userId: 'someone-else' }, { token: u.token });
    expect(junkQuery.statusCode).toBe(400);
    expect(junkQuery.json().error.code).toBe('VALIDATION_FAILED');
    for (const input of [
      {},
      { pin: '12345' },
      { pin: '12a4' },
      { pin: 1234 },
      { pin: '1234', currentPin: '12' },
      { pin: '1234', other: 1 },
    ]) {
      const r = await c('POST', S('setTransactionPinFn'), input, { token: u.token });
      expect(r.statusCode, JSON.stringify(input)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('preferences', () => {
  it('answers the documented defaults, merges partial updates, and is readable by other modules', async () => {
    const u = await signIn(h);
    const first = await c('GET', S('getPreferences'), undefined, { token: u.token });
    expect(first.json()).toEqual({ ok: true, preferences: DEFAULT_PREFERENCES });
    expect(DEFAULT_PREFERENCES).toEqual({
      notifications: { email: true, push: true, sms: false },
      marketingOptIn: false,
      language: 'en',
      theme: 'system',
      defaultNetwork: null,
    });

    const up = await c(
      'POST',
      S('updatePreferences'),
      { notifications: { sms: true }, language: 'yo', defaultNetwork: 'mtn' },
      { token: u.token },
    );
    expect(up.statusCode).toBe(200);
    expect(up.json().preferences).toEqual({
      ...DEFAULT_PREFERENCES,
      notifications: { email: true, push: true, sms: true },
      language: 'yo',
      defaultNetwork: 'mtn',
    });
    const up2 = await c(
      'POST',
      S('updatePreferences'),
      { theme: 'dark', notifications: { email: false }, defaultNetwork: null },
      { token: u.token },
    );
    expect(up2.json().preferences).toEqual({
      notifications: { email: false, push: true, sms: true },
      marketingOptIn: false,
      language: 'yo',
      theme: 'dark',
      defaultNetwork: null,
    });
    expect((await c('GET', S('getPreferences'), undefined, { token: u.token })).json().preferences).toEqual(up2.json().preferences);
    expect(await readPreferences(h.app.services.db, u.id)).toEqual(up2.json().preferences);
    const other = await signIn(h);
    expect(await readPreferences(h.app.services.db, other.id)).toEqual(DEFAULT_PREFERENCES);
  });

  it('concurrent partial updates both land', async () => {
    const u = await signIn(h);
    await Promise.all([
      c('POST', S('updatePreferences'), { theme: 'light' }, { token: u.token }),
      c('POST', S('updatePreferences'), { marketingOptIn: true }, { token: u.token }),
      c('POST', S('updatePreferences'), { notifications: { push: false } }, { token: u.token }),
    ]);
    const p = (await c('GET', S('getPreferences'), undefined, { token: u.token })).json().preferences;
    expect(p).toMatchObject({ theme: 'light', marketingOptIn: true, notifications: { push: false } });
  });

  it('refuses unknown fields, wrong types, unknown values and an empty update', async () => {
    expect((await c('GET', S('getPreferences'))).statusCode).toBe(401);
    expect((await c('POST', S('updatePreferences'), { theme: 'dark' })).statusCode).toBe(401);
    const u = await signIn(h);
    expect((await c('GET', S('getPreferences'), { theme: 'dark' }, { token: u.token })).statusCode).toBe(400);
    for (const input of [
      {},
      { theme: 'purple' },
      { language: 'fr' },
      { defaultNetwork: 'vodafone' },
      { marketingOptIn: 'yes' },
      { notifications: { email: 'no' } },
      { notifications: { fax: true } },
      { notifications: null },
      { colour: 'red' },
    ]) {
      const r = await c('POST', S('updatePreferences'), input, { token: u.token });
      expect(r.statusCode, JSON.stringify(input)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('closeAccount', () => {
  it('requires the literal DELETE and a token', async () => {
    expect((await c('POST', S('closeAccount'), { confirm: 'DELETE' })).statusCode).toBe(401);
    const u = await signIn(h);
    for (const input of [{}, { confirm: 'delete' }, { confirm: 'DELETE ' }, { confirm: true }]) {
      const r = await c('POST', S('closeAccount'), input, { token: u.token });
      expect(r.statusCode, JSON.stringify(input)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await c('GET', '/_serverFn/getProfileBearerSettings', undefined, { token: u.token })).statusCode).toBe(200);
  });

  it('is refused while the wallet or savings hold money, or a loan is open', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 250);
    const funded = await c('POST', S('closeAccount'), { confirm: 'DELETE' }, { token: u.token, headers: await emailGrant(h, u) });
    expect(funded.statusCode).toBe(400);
    expect(funded.json().error.code).toBe('ACCOUNT_HAS_FUNDS');

    const { ledger, db } = h.app.services;
    const v = await signIn(h);
    await db.transaction((tx) =>
      ledger.post(tx, {
        reference: `test_savings_${randomUUID()}`,
        type: 'adjustment',
        description: 'test savings',
        entries: [
          { account: { user: v.id, kind: 'savings' }, amount: toKobo(100) },
          { account: { system: 'adjustments' }, amount: -toKobo(100) },
        ],
      }),
    );
    expect(
      (await c('POST', S('closeAccount'), { confirm: 'DELETE' }, { token: v.token, headers: await emailGrant(h, v) })).json().error.code,
    ).toBe('ACCOUNT_HAS_FUNDS');

    const w = await signIn(h);
    await db.transaction((tx) =>
      ledger.post(tx, {
        reference: `test_loan_${randomUUID()}`,
        type: 'adjustment',
        description: 'test loan',
        entries: [
          { account: { user: w.id, kind: 'loan' }, amount: -toKobo(5000) },
          { account: { system: 'loan_book' }, amount: toKobo(5000) },
        ],
      }),
    );
    const loan = await c('POST', S('closeAccount'), { confirm: 'DELETE' }, { token: w.token, headers: await emailGrant(h, w) });
    expect(loan.statusCode).toBe(400);
    expect(loan.json().error.code).toBe('LOAN_OUTSTANDING');
    expect((await c('GET', '/_serverFn/getProfileBearerSettings', undefined, { token: w.token })).statusCode).toBe(200);
    await expectLedgerOk(h);
  });

  it('needs a step-up grant (with 2FA on, from the authenticator)', async () => {
    const u = await signIn(h);
    const secret = await enrollTotp(h, u);
    const r = await c('POST', S('closeAccount'), { confirm: 'DELETE' }, { token: u.token });
    expect(r.statusCode).toBe(403);
    expect(r.json().error.code).toBe('STEP_UP_REQUIRED');
    const grant = await grantFor(h, u, secret);
    const ok = await c('POST', S('closeAccount'), { confirm: 'DELETE' }, { token: u.token, headers: { 'x-grant-token': grant } });
    expect(ok.json()).toEqual({ ok: true, closed: true });
  });

  it('anonymises personal data, ends every session, keeps the ledger, and frees the e-mail', async () => {
    const u = await signIn(h);
    const name = `bye_${u.id.slice(0, 6)}`;
    await c(
      'POST',
      '/_serverFn/updateProfileBearerSettings',
      { username: name, fullName: 'Ada Obi', phone: '08031230000' },
      { token: u.token },
    );
    const headers = await emailGrant(h, u);
    await c('POST', '/_serverFn/setLoginPinBearerAuth', { pin: '918273' }, { token: u.token, headers });
    await fundWallet(h, u.id, 300);
    // Spend it down to zero so the account may close; the ledger rows stay.
    await h.app.services.db.transaction((tx) =>
      h.app.services.ledger.post(tx, {
        reference: `test_out_${randomUUID()}`,
        type: 'adjustment',
        description: 'test withdrawal',
        entries: [
          { account: { user: u.id, kind: 'wallet' }, amount: -toKobo(300) },
          { account: { system: 'adjustments' }, amount: toKobo(300) },
        ],
      }),
    );
    h.clock.advance(61_000);
    const second = await signIn(h, u.email);

    const r = await c('POST', S('closeAccount'), { confirm: 'DELETE' }, { token: u.token, headers });
    expect(r.json()).toEqual({ ok: true, closed: true });

    const row = (
      await q<{ email: string; username: string | null; full_name: string | null; phone: string | null; status: string }>(
        sql`SELECT email, username, full_name, phone, status FROM users WHERE id = ${u.id}`,
      )
    ).rows[0];
    expect(row).toEqual({ email: `closed+${u.id}@closed.invalid`, username: null, full_name: null, phone: null, status: 'closed' });
    const active = (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${u.id} AND status = 'active'`))
      .rows[0].n;
    expect(active).toBe(0);
    const entries = (
      await q<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ${u.id}`,
      )
    ).rows[0].n;
    expect(entries).toBe(2);
    await expectLedgerOk(h);

    for (const t of [u.token, second.token])
      expect((await c('GET', '/_serverFn/getProfileBearerSettings', undefined, { token: t })).statusCode).toBe(401);
    expect((await c('POST', '/_serverFn/refreshSessionPublicAuth', { refreshToken: second.refreshToken })).statusCode).toBe(401);
    const pinLogin = await c('POST', '/_serverFn/startPinLoginPublicAuth', { identifier: `@${name}`, pin: '918273' });
    expect(pinLogin.statusCode).toBe(401);

    // The address is free again: signing in with it creates a new, empty account.
    h.clock.advance(61_000);
    const fresh = await signIn(h, u.email);
    expect(fresh.id).not.toBe(u.id);
  });

  it('no PIN appears in any response or log line', () => {
    const text = responses.join('\n') + '\n' + h.logs.join('\n');
    for (const p of ['4821', '9034', '5820', '6402', '7713', '918273']) {
      expect(text).not.toMatch(new RegExp(`"(pin|currentPin)":"${p}"`));
    }
    for (const p of ['918273']) expect(text).not.toMatch(new RegExp(`(?<![\\d.])${p}(?!\\d)`));
  });
});
