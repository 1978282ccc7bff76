import { sql } from 'drizzle-orm';
import { one, type Tx } from '../../db/client.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { Entry } from '../../ledger/ledger.js';
import type { WithdrawalDeps } from './withdraw.js';
import {
  PAYOUTS_ACCOUNT,
  WITHDRAWAL_COLUMNS,
  WITHDRAWAL_FEE_ACCOUNT,
  refundReferenceOf,
  settleReferenceOf,
  type WithdrawalRow,
} from './withdrawal-model.js';

/**
 * A withdrawal's end (issue 43): each is one transaction whose first statement is a guarded UPDATE of the row (only
 * from the state it leaves), so the send job, the poll and the webhook may all reach it at once and exactly one
 * moves the money: the others find the row already moved and change nothing. The ledger references (`<ref>:settle`,
 * `<ref>:refund`) are unique besides.
 */
type Settled = WithdrawalRow | null;

const wallet = (w: WithdrawalRow) => ({ user: w.user_id, kind: 'wallet' as const });
const totalOf = (w: WithdrawalRow) => BigInt(w.amount) + BigInt(w.fee);

async function move(tx: Tx, w: { id: string }, from: string, to: string, f: { now: Date; reason?: string | null; code?: string | null }) {
  return one<WithdrawalRow>(
    tx,
    sql`UPDATE withdrawals SET status = ${to}, failure_reason = COALESCE(${f.reason ?? null}::text, failure_reason),
          transfer_code = COALESCE(${f.code ?? null}::text, transfer_code), settled_at = COALESCE(settled_at, ${f.now}::timestamptz), updated_at = ${f.now}
        WHERE id = ${w.id} AND status = ${from}
        RETURNING ${WITHDRAWAL_COLUMNS}`,
  );
}

/** The processor paid the bank: pending -> success; the money leaves the payouts account, the fee is revenue. */
export function settleWithdrawal(deps: WithdrawalDeps, w: { id: string }, code?: string | null): Promise<Settled> {
  const { db, clock, work } = deps;
  return db.transaction(async (tx) => {
    const done = await move(tx, w, 'pending', 'success', { now: clock.now(), code });
    if (!done) return null;
    await work
      .change(tx)
      .post({
        reference: settleReferenceOf(done.reference),
        type: 'withdrawal_settled',
        description: `Withdrawal ${done.reference} paid to ${done.bank_name} ${done.account_number}`,
        entries: [
          { account: { system: PAYOUTS_ACCOUNT }, amount: -totalOf(done) },
          { account: { system: 'collections' }, amount: BigInt(done.amount) },
          { account: { system: WITHDRAWAL_FEE_ACCOUNT }, amount: BigInt(done.fee) },
        ],
        metadata: { withdrawalId: done.id },
      })
      .notify({
        userId: done.user_id,
        kind: 'general',
        title: 'Withdrawal paid',
        body: `${formatNaira(BigInt(done.amount))} was sent to ${done.account_name}, ${done.bank_name} ${done.account_number}.`,
        data: {
          event: 'withdrawal_paid',
          reference: done.reference,
          amount: toNaira(done.amount),
          name: done.account_name,
          bank: done.bank_name,
        },
      })
      .commit();
    return done;
  });
}

/**
 * The transfer failed (or was reversed) at the processor: the customer gets amount and fee back, once. A pending
 * withdrawal ends `failed` (the money comes back from the payouts account); a paid one the bank sent back ends
 * `reversed` (it comes back from the processor balance and the fee's revenue).
 */
export function refundWithdrawal(deps: WithdrawalDeps, w: { id: string }, reason: string, reversal = false): Promise<Settled> {
  const { db, clock, work } = deps;
  return db.transaction(async (tx) => {
    const now = clock.now();
    const done =
      (await move(tx, w, 'pending', 'failed', { now, reason })) ??
      (reversal ? await move(tx, w, 'success', 'reversed', { now, reason }) : null);
    if (!done) return null;
    const total = totalOf(done);
    const from: Entry[] =
      done.status === 'reversed'
        ? [
            { account: { system: 'collections' }, amount: -BigInt(done.amount) },
            { account: { system: WITHDRAWAL_FEE_ACCOUNT }, amount: -BigInt(done.fee) },
          ]
        : [{ account: { system: PAYOUTS_ACCOUNT }, amount: -total }];
    await work
      .change(tx)
      .post({
        reference: refundReferenceOf(done.reference),
        type: 'withdrawal_refund',
        description: `Refund: withdrawal ${done.reference} to ${done.bank_name} ${done.account_number} ${done.status === 'reversed' ? 'was reversed' : 'failed'}`,
        entries: [...from, { account: wallet(done), amount: total }],
        metadata: { withdrawalId: done.id, reason },
      })
      .notify({
        userId: done.user_id,
        kind: 'general',
        title: 'Withdrawal failed: refunded',
        body: `Your withdrawal of ${formatNaira(BigInt(done.amount))} to ${done.bank_name} ${done.account_number} did not go through; ${formatNaira(total)} is back in your wallet.`,
        data: {
          event: 'withdrawal_refunded',
          reference: done.reference,
          amount: toNaira(done.amount),
          total: toNaira(total),
          bank: done.bank_name,
        },
      })
      .commit();
    return done;
  });
}
