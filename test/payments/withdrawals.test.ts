import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { HOUR, MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { PIN, user, walletBalance } from '../helpers/factories.js';
import { balance, count } from './helpers.js';

/**
 * withdrawToBank and its processor side (issue 43): name enquiry, the Tier 2 gate, the fee, the daily limit, the
 * Idempotency-Key, and the refund exactly once whichever of the send job, the poll and the webhook reaches it first.
 * Against the sandbox processor's magic account numbers (docs/sandbox.md).
 */
let h: Harness;
beforeAll(async () => {
  // An operator for the console's stuck withdrawals; a withdrawal is stuck after 30 minutes here (60 by default).
  h = await createHarness({ env: { ADMIN_EMAILS: 'ops@example.com', WITHDRAWAL_STUCK_AFTER_MINUTES: '30' } });
});
afterAll(async () => h?.close());

const GTB = '058';
const op = (name: string) => `/_serverFn/${name}BearerWallet`;
const withdraw = (u: TestUser, data: Record<string, unknown>, key?: string) =>
  call(
    h,
    'POST',
    op('withdrawToBank'),
    { bankCode: GTB, pin: PIN, ...data },
    { token: u.token, headers: key ? { 'idempotency-key': key } : {} },
  );
const status = async (u: TestUser, reference: string) =>
  (await call(h, 'GET', op('getWithdrawal'), { reference }, { token: u.token })).json().withdrawal;
const customer = async (naira = 10_000, tier = 2) => {
  const u = await user(h, { tier, pin: PIN });
  await fundWallet(h, u.id, naira);
  return u;
};
const ledgerCount = (like: string) => count(h, sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference LIKE ${like}`);
const systemBalance = async (code: string) => {
  const [r] = await rows<{ s: string | null }>(
    h.app.services.db,
    sql`SELECT sum(e.amount)::text AS s FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.code = ${code}`,
  );
  return Number(r?.s ?? 0) / 100;
};

describe('withdrawals: options, name enquiry and the Tier 2 gate', () => {
  it('refuses below Tier 2 with KYC_TIER_REQUIRED (403), before the PIN', async () => {
    const u = await customer(10_000, 1);
    for (const [method, name, input] of [
      ['GET', 'getWithdrawalOptions', undefined],
      ['POST', 'resolveWithdrawalAccount', { bankCode: GTB, accountNumber: '0123456789' }],
      ['POST', 'withdrawToBank', { bankCode: GTB, accountNumber: '0123456789', amount: 1000, pin: '0000' }],
    ] as const) {
      const r = await call(h, method, op(name), input, { token: u.token });
      expect(r.statusCode, name).toBe(403);
      expect(r.json().error.code).toBe('KYC_TIER_REQUIRED');
    }
    expect(await balance(h, u)).toBe(10_000);
  });

  it('shows the fee and the banks, and resolves the account name; 0000 fails name enquiry', async () => {
    const u = await customer();
    const opts = (await call(h, 'GET', op('getWithdrawalOptions'), undefined, { token: u.token })).json();
    expect(opts).toMatchObject({ fee: 50, minAmount: 100 });
    expect(opts.banks).toContainEqual({ code: GTB, name: 'Guaranty Trust Bank' });
    const ok = await call(h, 'POST', op('resolveWithdrawalAccount'), { bankCode: GTB, accountNumber: '0123456789' }, { token: u.token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      bankCode: GTB,
      bankName: 'Guaranty Trust Bank',
      accountNumber: '0123456789',
      accountName: 'CHINEDU NWOSU',
    });
    const bad = await call(h, 'POST', op('resolveWithdrawalAccount'), { bankCode: GTB, accountNumber: '0123450000' }, { token: u.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'accountNumber' }] });
    const unknown = await call(
      h,
      'POST',
      op('resolveWithdrawalAccount'),
      { bankCode: '999', accountNumber: '0123456789' },
      { token: u.token },
    );
    expect(unknown.json().error.issues[0].path).toBe('bankCode');
    // A withdrawal to an account the bank does not know debits nothing.
    expect((await withdraw(u, { accountNumber: '0123450000', amount: 500 })).statusCode).toBe(400);
    expect(await balance(h, u)).toBe(10_000);
  });
});

describe('withdrawToBank: the money', () => {
  it('debits amount + fee into payouts at once; the transfer settles: payouts empty, the fee revenue', async () => {
    const u = await customer();
    const [payouts0, fees0] = [await systemBalance('system:payouts'), await systemBalance('system:revenue:withdrawal_fees')];
    const r = await withdraw(u, { accountNumber: '0123456789', amount: 1000 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      balance: 8950,
      withdrawal: { status: 'pending', amount: 1000, fee: 50, total: 1050, accountName: 'CHINEDU NWOSU', bankName: 'Guaranty Trust Bank' },
    });
    const { reference } = r.json().withdrawal;
    expect(await systemBalance('system:payouts')).toBe(payouts0 + 1050);
    await h.app.services.jobs.drain();
    expect(await status(u, reference)).toMatchObject({ status: 'success', settledAt: expect.any(String) });
    expect(await systemBalance('system:payouts')).toBe(payouts0);
    expect(await systemBalance('system:revenue:withdrawal_fees')).toBe(fees0 + 50);
    expect(await balance(h, u)).toBe(8950);
    // The webhook that also announced it found it paid and moved nothing.
    expect(await ledgerCount(`${reference}%`)).toBe(2);
    await expectLedgerOk(h);
  });

  it('a transfer the bank refuses (1111) is refunded once, amount and fee, and the daily limit is given back', async () => {
    const u = await customer();
    const r = await withdraw(u, { accountNumber: '0123451111', amount: 2000 });
    expect(r.statusCode, r.body).toBe(200);
    const { reference } = r.json().withdrawal;
    await h.app.services.jobs.drain();
    expect(await status(u, reference)).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    expect(await balance(h, u)).toBe(10_000);
    expect(await ledgerCount(`${reference}:refund`)).toBe(1);
    const { log } = (await call(h, 'GET', op('getWalletState'), undefined, { token: u.token })).json();
    expect(log.slice(0, 2).map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ['withdrawal_refund', 2050],
      ['withdrawal', -2050],
    ]);
    const limits = (await call(h, 'GET', op('getWalletLimits'), undefined, { token: u.token })).json();
    expect(limits.spentToday).toBe(0);
    await expectLedgerOk(h);
  });

  it('counts in the daily outflow limit with purchases and transfers (amount + fee)', async () => {
    const u = await customer(210_000);
    const debit = await call(h, 'POST', op('debitWalletFn'), { amount: 199_000, note: 'rent', pin: PIN }, { token: u.token });
    expect(debit.statusCode, debit.body).toBe(200);
    const over = await withdraw(u, { accountNumber: '0123456789', amount: 960 });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.code).toBe('LIMIT_EXCEEDED');
    expect((await withdraw(u, { accountNumber: '0123456789', amount: 950 })).statusCode).toBe(200);
    expect(await balance(h, u)).toBe(10_000);
    await expectLedgerOk(h);
  });

  it('checks the PIN and the balance', async () => {
    const u = await customer(500);
    expect((await withdraw(u, { accountNumber: '0123456789', amount: 100, pin: '9999' })).json().error.code).toBe('INVALID_PIN');
    expect((await withdraw(u, { accountNumber: '0123456789', amount: 460 })).json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(h, u)).toBe(500);
  });

  it('one Idempotency-Key is one withdrawal: concurrent double submits debit once', async () => {
    const u = await customer();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => withdraw(u, { accountNumber: '0123456789', amount: 1000 }, `wd-${u.id}`)),
    );
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    const refs = new Set(answers.filter((a) => a.statusCode === 200).map((a) => a.json().withdrawal.reference));
    expect(refs.size).toBe(1);
    const again = await withdraw(u, { accountNumber: '0123456789', amount: 1000 }, `wd-${u.id}`);
    expect(again.json().withdrawal.reference).toBe([...refs][0]);
    expect(await count(h, sql`SELECT count(*)::int AS n FROM withdrawals WHERE user_id = ${u.id}`)).toBe(1);
    expect(await balance(h, u)).toBe(8950);
    await h.app.services.jobs.drain();
    await expectLedgerOk(h);
  });

  it('another customer’s withdrawal is NOT_FOUND', async () => {
    const [a, b] = [await customer(), await customer()];
    const { reference } = (await withdraw(a, { accountNumber: '0123456789', amount: 100 })).json().withdrawal;
    const r = await call(h, 'GET', op('getWithdrawal'), { reference }, { token: b.token });
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('NOT_FOUND');
  });
});

const endTransfer = (reference: string, outcome: string, webhook = true) =>
  h.app.inject({ method: 'POST', url: '/sandbox/processor/transfer', payload: { reference, outcome, webhook } });

describe('withdrawals: pending, the webhook and the poll', () => {
  const eventOf = async (reference: string, event: string) => {
    const [e] = await rows<{ id: string }>(
      h.app.services.db,
      sql`SELECT id::text AS id FROM processor_events WHERE reference = ${reference} AND event = ${event}`,
    );
    return e.id;
  };
  const idOf = async (reference: string) =>
    (await rows<{ id: string }>(h.app.services.db, sql`SELECT id::text AS id FROM withdrawals WHERE reference = ${reference}`))[0].id;

  it('2222 stays pending; a failure reported by webhook and found by the poll at once refunds exactly once', async () => {
    const u = await customer();
    const { reference } = (await withdraw(u, { accountNumber: '0123452222', amount: 3000 })).json().withdrawal;
    await h.app.services.jobs.drain();
    expect((await status(u, reference)).status).toBe('pending');
    expect(await balance(h, u)).toBe(6950);
    const ended = await endTransfer(reference, 'failed');
    expect(ended.statusCode, ended.body).toBe(200);
    const eventId = await eventOf(reference, 'transfer.failed');
    const id = await idOf(reference);
    const { payments } = h.app.services;
    // The webhook's job, the poll and a redelivered event's handling all at once.
    await Promise.all([
      payments.processEvent(eventId, false),
      payments.pollWithdrawal(id),
      payments.pollWithdrawal(id),
      payments.transferEvent('sandbox', 'transfer.failed', reference),
    ]);
    await h.app.services.jobs.drain();
    expect(await status(u, reference)).toMatchObject({ status: 'failed' });
    expect(await balance(h, u)).toBe(10_000);
    expect(await ledgerCount(`${reference}:refund`)).toBe(1);
    await expectLedgerOk(h);
  });

  it('a pending transfer paid later settles by webhook; a paid one the bank reverses is refunded once', async () => {
    const u = await customer();
    const { reference } = (await withdraw(u, { accountNumber: '0123452222', amount: 1000 })).json().withdrawal;
    await h.app.services.jobs.drain();
    expect((await endTransfer(reference, 'success')).statusCode).toBe(200);
    await h.app.services.jobs.drain();
    expect((await status(u, reference)).status).toBe('success');
    expect((await endTransfer(reference, 'reversed')).statusCode).toBe(200);
    await Promise.all([
      h.app.services.jobs.drain(),
      h.app.services.payments.transferEvent('sandbox', 'transfer.reversed', reference),
      h.app.services.payments.transferEvent('sandbox', 'transfer.reversed', reference),
    ]);
    expect(await status(u, reference)).toMatchObject({ status: 'reversed' });
    expect(await balance(h, u)).toBe(10_000);
    expect(await ledgerCount(`${reference}:refund`)).toBe(1);
    await expectLedgerOk(h);
  });

  it('a pending transfer the webhook never announces is settled by the poll', async () => {
    const u = await customer();
    const { reference } = (await withdraw(u, { accountNumber: '0123452222', amount: 1000 })).json().withdrawal;
    await h.app.services.jobs.drain();
    expect((await endTransfer(reference, 'success', false)).statusCode).toBe(200);
    h.clock.advance(HOUR);
    await h.app.services.jobs.drain();
    const [w] = await rows<{ status: string }>(h.app.services.db, sql`SELECT status FROM withdrawals WHERE reference = ${reference}`);
    expect(w.status).toBe('success');
    expect(await walletBalance(h, u.id)).toBe(8950);
    await expectLedgerOk(h);
  });
});

describe('the console: stuck withdrawals and their requery', () => {
  // Signed in again after each jump of the clock (an access token lives minutes).
  let ops: TestUser;
  const opsSignIn = async () => void (ops = await signIn(h, 'ops@example.com'));
  const admin = (method: 'GET' | 'POST', name: string, data?: Record<string, unknown>) =>
    call(h, method, `/_serverFn/${name}BearerAdmin`, data, { token: ops.token });
  const stuckList = async (reference: string) => (await admin('GET', 'adminListWithdrawals', { stuck: true, reference })).json();
  const polls = async (reference: string) =>
    (await rows<{ polls: number }>(h.app.services.db, sql`SELECT polls FROM withdrawals WHERE reference = ${reference}`))[0].polls;

  it("a withdrawal pending past WITHDRAWAL_STUCK_AFTER_MINUTES waits for an operator; a requery applies the processor's answer once", async () => {
    const u = await customer();
    const { reference } = (await withdraw(u, { accountNumber: '0123452222', amount: 2000 })).json().withdrawal;
    await h.app.services.jobs.drain();
    await opsSignIn();
    expect((await stuckList(reference)).items).toEqual([]);

    h.clock.advance(31 * MINUTE);
    await opsSignIn();
    const list = await stuckList(reference);
    expect(list.stuckAfterSeconds).toBe(1800);
    expect(list.items).toEqual([
      expect.objectContaining({ reference, status: 'pending', userId: u.id, amount: 2000, fee: 50, processor: 'sandbox' }),
    ]);
    const queues = (await admin('GET', 'adminDashboardQueues')).json();
    expect(queues.withdrawals.stuck).toBeGreaterThanOrEqual(1);
    expect(queues.withdrawals.stuckAfterSeconds).toBe(1800);
    expect(queues.withdrawals.oldestStuckSeconds).toBeGreaterThanOrEqual(31 * 60);

    // Still pending at the processor: asked again, and one chain of polls goes on (the replaced one's job ends unasked).
    const still = await admin('POST', 'adminRequeryWithdrawal', { reference });
    expect(still.statusCode, still.body).toBe(200);
    expect(still.json()).toMatchObject({ processorStatus: 'pending', withdrawal: { reference, status: 'pending' } });
    const after = await polls(reference);
    h.clock.advance(HOUR);
    await h.app.services.jobs.drain();
    expect(await polls(reference)).toBe(after + 1);
    await opsSignIn();

    // The processor paid it without a webhook: the requery settles it; asked again, nothing moves twice.
    expect((await endTransfer(reference, 'success')).statusCode).toBe(200);
    const [paid, again] = await Promise.all([
      admin('POST', 'adminRequeryWithdrawal', { reference }),
      admin('POST', 'adminRequeryWithdrawal', { reference }),
    ]);
    expect([paid.json().withdrawal.status, again.json().withdrawal.status]).toEqual(['success', 'success']);
    expect((await admin('POST', 'adminRequeryWithdrawal', { reference })).json()).toMatchObject({
      processorStatus: null,
      withdrawal: { status: 'success' },
    });
    expect(await ledgerCount(`${reference}:settle`)).toBe(1);
    expect(await walletBalance(h, u.id)).toBe(7950);
    expect((await stuckList(reference)).items).toEqual([]);
    expect((await admin('GET', 'adminListWithdrawals', { status: 'success', reference })).json().items).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it('a failed transfer found by the requery is refunded once; an unknown reference is NOT_FOUND', async () => {
    const u = await customer();
    const { reference } = (await withdraw(u, { accountNumber: '0123452222', amount: 1000 })).json().withdrawal;
    await h.app.services.jobs.drain();
    expect((await endTransfer(reference, 'failed', false)).statusCode).toBe(200);
    h.clock.advance(2 * MINUTE);
    await opsSignIn();
    const r = await admin('POST', 'adminRequeryWithdrawal', { reference });
    expect(r.json()).toMatchObject({ processorStatus: 'failed', withdrawal: { status: 'failed' } });
    expect(await balance(h, u)).toBe(10_000);
    expect(await ledgerCount(`${reference}:refund`)).toBe(1);
    const missing = await admin('POST', 'adminRequeryWithdrawal', { reference: 'wdr_nope' });
    expect(missing.statusCode).toBe(404);
    await expectLedgerOk(h);
  });
});
