import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/kernel/clock.js';
import { call, createHarness, emailGrant, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { balance, count, tier2User, user } from '../payments/helpers.js';
import { setUserFacts } from '../helpers/factories.js';

/** debitWalletFn, transferWalletFn, lookupProfileByUsername (spec 4.4, 5.4, 5.8, 8; docs/design.md §6). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const debit = (u: TestUser, data: Record<string, unknown>) =>
  call(h, 'POST', '/_serverFn/debitWalletFnBearerWallet', data, { token: u.token });
const transfer = (u: TestUser, data: Record<string, unknown>, headers?: Record<string, string>) =>
  call(h, 'POST', '/_serverFn/transferWalletFnBearerWallet', data, { token: u.token, headers });
let seq = 0;
const uname = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${seq++}`;

describe('debitWalletFn', () => {
  it('enforces the bounds of spec 8: minimum 50 naira, 4-digit PIN, note required', async () => {
    const u = await user(h, { pin: '1234' });
    await fundWallet(h, u.id, 1000);
    for (const [data, path] of [
      [{ amount: 49.99, note: 'x', pin: '1234' }, 'amount'],
      [{ amount: 50, note: 'x', pin: '123' }, 'pin'],
      [{ amount: 50, note: 'x', pin: '12345' }, 'pin'],
      [{ amount: 50, note: 'x', pin: '12a4' }, 'pin'],
      [{ amount: 50, note: '', pin: '1234' }, 'note'],
      [{ amount: 50, note: 'x'.repeat(141), pin: '1234' }, 'note'],
      [{ amount: 50.001, note: 'x', pin: '1234' }, 'amount'],
      [{ amount: '50', note: 'x', pin: '1234' }, 'amount'],
      [{ amount: 1e30, note: 'x', pin: '1234' }, 'amount'],
      [{ note: 'x', pin: '1234' }, 'amount'],
    ] as const) {
      const r = await debit(u, data);
      expect(r.statusCode, JSON.stringify(data)).toBe(400);
      expect(r.json().error.code).toBe('VALIDATION_FAILED');
      expect(r.json().error.issues[0].path).toBe(path);
    }
    const ok = await debit(u, { amount: 50, note: 'exactly the minimum', pin: '1234' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ amount: 50, balance: 950, note: 'exactly the minimum' });
    const state = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
    expect(state.json().log[0]).toMatchObject({
      type: 'wallet_debit',
      amount: -50,
      balanceAfter: 950,
      reference: ok.json().reference,
      description: 'exactly the minimum',
    });
  });

  it('checks the transaction PIN and the balance', async () => {
    const noPin = await user(h);
    await fundWallet(h, noPin.id, 100);
    expect((await debit(noPin, { amount: 60, note: 'x', pin: '1234' })).json().error.code).toBe('PIN_NOT_SET');
    const u = await user(h, { pin: '4321' });
    await fundWallet(h, u.id, 100);
    const wrong = await debit(u, { amount: 60, note: 'x', pin: '1111' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_PIN');
    const poor = await debit(u, { amount: 100.01, note: 'x', pin: '4321' });
    expect(poor.statusCode).toBe(400);
    expect(poor.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(h, u)).toBe(100);
  });

  it('holds the tier daily outflow limit and resets at Lagos midnight', async () => {
    const u = await user(h, { tier: 1, pin: '1234' });
    await fundWallet(h, u.id, 60_000);
    expect((await debit(u, { amount: 50_000, note: 'big', pin: '1234' })).statusCode).toBe(200);
    const over = await debit(u, { amount: 50, note: 'one more', pin: '1234' });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.code).toBe('LIMIT_EXCEEDED');
    expect(over.json().error.message).toContain('₦50,000.00');
    h.clock.advance(DAY);
    const again = await signIn(h, u.email); // access tokens live 15 minutes
    expect((await debit(again, { amount: 50, note: 'next day', pin: '1234' })).statusCode).toBe(200);
    await expectLedgerOk(h);
  });
});

describe('lookupProfileByUsername', () => {
  it('returns only the minimal public profile', async () => {
    const name = uname('look');
    await user(h, { username: name, fullName: 'Ada Obi' });
    const caller = await user(h);
    const r = await call(
      h,
      'POST',
      '/_serverFn/lookupProfileByUsernameBearerWallet',
      { username: `@${name.toUpperCase()}` },
      { token: caller.token },
    );
    expect(r.statusCode).toBe(200);
    // A Tier 0 caller sees the name masked; the tier that may transfer sees it (test/security/enumeration.test.ts).
    expect(r.json()).toEqual({ ok: true, username: name, fullName: 'A*** O***' });
    const missing = await call(
      h,
      'POST',
      '/_serverFn/lookupProfileByUsernameBearerWallet',
      { username: 'nobody_here_1' },
      { token: caller.token },
    );
    expect(missing.statusCode).toBe(404);
    expect(
      (await call(h, 'POST', '/_serverFn/lookupProfileByUsernameBearerWallet', { username: 'a' }, { token: caller.token })).statusCode,
    ).toBe(400);
  });
});

describe('transferWalletFn', () => {
  it('needs KYC Tier 2 (with a matching name when the KYC module decides)', async () => {
    const to = await tier2User(h, { username: uname('rcv'), fullName: 'Bola Ade' });
    const t1 = await user(h, { tier: 1, pin: '1234', username: uname('t1'), fullName: 'Chi Eze' });
    await fundWallet(h, t1.id, 1000);
    const r = await transfer(t1, { username: (await lookup(to)).username, amount: 100, pin: '1234' });
    expect(r.statusCode).toBe(403);
    expect(r.json().error.code).toBe('KYC_TIER_REQUIRED');
    expect(await balance(h, t1)).toBe(1000);
  });

  it('refuses a Tier 2 sender whose profile name no longer matches the verified NIN name (KYC module)', async () => {
    const to = await tier2User(h, { username: uname('rcv'), fullName: 'Bola Ade' });
    const me = await tier2User(h, { username: uname('nm'), fullName: 'Musa Bello', pin: '1234' });
    await fundWallet(h, me.id, 1000);
    await setUserFacts(h, me.id, { fullName: 'Somebody Else' });
    const r = await transfer(me, { username: (await lookup(to)).username, amount: 100, pin: '1234' });
    expect(r.statusCode).toBe(403);
    expect(r.json().error.code).toBe('KYC_TIER_REQUIRED');
  });

  it('moves money between wallets, logs both sides, notifies both, emits wallet.credited', async () => {
    const fromName = uname('snd');
    const toName = uname('rcv');
    const from = await tier2User(h, { username: fromName, fullName: 'Ngozi Okafor', pin: '2468' });
    const to = await tier2User(h, { username: toName, fullName: 'Tunde Bello' });
    await fundWallet(h, from.id, 5000);
    const seen: unknown[] = [];
    h.app.services.events.on('wallet.credited', (e) => (seen.push(e), null));
    const r = await transfer(from, { username: toName, amount: 1250.5, note: 'rent', pin: '2468' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ amount: 1250.5, balance: 3749.5, recipient: { username: toName, fullName: 'Tunde Bello' } });
    expect(await balance(h, to)).toBe(1250.5);
    const toState = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: to.token })).json();
    expect(toState.log[0]).toMatchObject({ type: 'transfer_in', amount: 1250.5, balanceAfter: 1250.5, reference: r.json().reference });
    const fromState = (await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: from.token })).json();
    expect(fromState.log[0]).toMatchObject({ type: 'transfer_out', amount: -1250.5, balanceAfter: 3749.5 });
    expect(seen).toContainEqual(expect.objectContaining({ userId: to.id, source: 'transfer', amount: 125050n }));
    expect(await count(h, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${from.id} AND kind = 'transfer_sent'`)).toBe(1);
    expect(await count(h, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${to.id} AND kind = 'transfer_received'`)).toBe(
      1,
    );
    await expectLedgerOk(h);
  });

  it('refuses oneself, unknown and closed recipients, a wrong PIN, and the recipient tier cap', async () => {
    const meName = uname('me');
    const me = await tier2User(h, { username: meName, fullName: 'Emeka Nwosu', pin: '1357' });
    await fundWallet(h, me.id, 100_000);
    const self = await transfer(me, { username: meName, amount: 100, pin: '1357' });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.code).toBe('BAD_REQUEST');
    expect((await transfer(me, { username: 'no_such_user_9', amount: 100, pin: '1357' })).statusCode).toBe(404);
    const closedName = uname('gone');
    const closed = await user(h, { username: closedName });
    await setUserFacts(h, closed.id, { status: 'closed' });
    expect((await transfer(me, { username: closedName, amount: 100, pin: '1357' })).statusCode).toBe(404);
    const okName = uname('ok');
    const rcv = await user(h, { username: okName }); // tier 0: cap ₦300,000
    await fundWallet(h, rcv.id, 299_950);
    expect((await transfer(me, { username: okName, amount: 100, pin: '9999' })).json().error.code).toBe('INVALID_PIN');
    const capped = await transfer(me, { username: okName, amount: 100, pin: '1357' });
    expect(capped.statusCode).toBe(400);
    expect(capped.json().error.code).toBe('LIMIT_EXCEEDED');
    expect(capped.json().error.message).not.toContain('299');
    expect((await transfer(me, { username: okName, amount: 49, pin: '1357' })).statusCode).toBe(400);
    expect((await transfer(me, { username: okName, amount: 50, pin: '1357' })).statusCode).toBe(200);
    expect(await balance(h, me)).toBe(99_950);
    await expectLedgerOk(h);
  });

  it('asks for step-up when 2FA is enrolled', async () => {
    const name = uname('twofa');
    const me = await tier2User(h, { username: name, fullName: 'Femi Ola', pin: '1234' });
    const to = await tier2User(h, { username: uname('dst'), fullName: 'Kemi Ola' });
    await fundWallet(h, me.id, 500);
    const stepUp = h.app.services.stepUp;
    expect(stepUp).toBeDefined();
    // Enrol TOTP through the real operations of the security module.
    const enrol = { token: me.token, headers: await emailGrant(h, me) };
    const begin = await call(h, 'POST', '/_serverFn/beginTotpEnrollmentBearer2FA', {}, enrol);
    expect(begin.statusCode).toBe(200);
    const { TOTP, Secret } = await import('otpauth');
    const totp = new TOTP({ secret: Secret.fromBase32(begin.json().secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const code = () => totp.generate({ timestamp: h.clock.now().getTime() });
    expect((await call(h, 'POST', '/_serverFn/confirmTotpEnrollmentBearer2FA', { code: code() }, enrol)).statusCode).toBe(200);
    const toName = (await lookup(to)).username;
    const noGrant = await transfer(me, { username: toName, amount: 100, pin: '1234' });
    expect(noGrant.statusCode).toBe(403);
    expect(noGrant.json().error.code).toBe('STEP_UP_REQUIRED');
    h.clock.advance(31_000);
    const grant = await call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', { totpCode: code() }, { token: me.token });
    expect(grant.statusCode).toBe(200);
    const ok = await transfer(me, { username: toName, amount: 100, pin: '1234' }, { 'x-grant-token': grant.json().grantToken });
    expect(ok.statusCode).toBe(200);
  });
});

async function lookup(u: TestUser) {
  const r = (await h.app.services.db.execute(sql`SELECT username FROM users WHERE id = ${u.id}`)) as unknown as {
    rows: { username: string }[];
  };
  return r.rows[0];
}

describe('concurrency (meaningful on PostgreSQL)', () => {
  it('100 concurrent debits and transfers on one wallet: never negative, exact balance', async () => {
    const me = await tier2User(h, { username: uname('hot'), fullName: 'Hot Wallet', pin: '1234', tier: 3 });
    const rcvs = await Promise.all([0, 1, 2, 3].map((n) => tier2User(h, { username: uname(`r${n}`), fullName: 'Some Receiver' })));
    const rcvNames = await Promise.all(rcvs.map(lookup));
    await fundWallet(h, me.id, 10_000);
    const ops = Array.from({ length: 100 }, (_, n) =>
      n % 5 < 3
        ? debit(me, { amount: 150, note: `d${n}`, pin: '1234' })
        : transfer(me, { username: rcvNames[n % 4].username, amount: 150, pin: '1234' }),
    );
    const res = await Promise.all(ops);
    const ok = res.filter((r) => r.statusCode === 200).length;
    const refused = res.filter((r) => r.statusCode === 400 && r.json().error.code === 'INSUFFICIENT_FUNDS').length;
    expect(ok + refused).toBe(100);
    expect(ok).toBe(66); // floor(10,000 / 150)
    expect(await balance(h, me)).toBe(10_000 - 66 * 150);
    const received = (await Promise.all(rcvs.map((r) => balance(h, r)))).reduce((a, b) => a + b, 0);
    const debits = await count(
      h,
      sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'wallet_debit' AND description LIKE 'd%' AND id IN (SELECT transaction_id FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ${me.id})`,
    );
    expect(received + debits * 150).toBe(66 * 150);
    const negative = await count(
      h,
      sql`SELECT count(*)::int AS n FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.user_id = ${me.id} AND e.balance_after < 0`,
    );
    expect(negative).toBe(0);
    await expectLedgerOk(h);
  });

  it('100 concurrent debits cannot pass the daily tier limit', async () => {
    const me = await user(h, { tier: 1, pin: '1234' });
    await fundWallet(h, me.id, 100_000);
    const res = await Promise.all(Array.from({ length: 100 }, (_, n) => debit(me, { amount: 1000, note: `l${n}`, pin: '1234' })));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(50);
    expect(res.filter((r) => r.statusCode === 400 && r.json().error.code === 'LIMIT_EXCEEDED')).toHaveLength(50);
    expect(await balance(h, me)).toBe(50_000);
    await expectLedgerOk(h);
  });
});
