import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import { prefixedId } from '../../kernel/ids.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import { profileOf } from '../identity/api.js';
import { searchPayments, type PaymentSearch } from './admin-search.js';

export { PAYMENT_SORTS, type PaymentSort } from './admin-search.js';

/**
 * The operators' payments operations: searching intents, settlements and webhook events (admin-search.ts); wallet
 * adjustments and top-up corrections (below).
 */
export function createPaymentsAdmin(deps: { db: Db; clock: Clock; work: Work }) {
  const { db } = deps;
  type Actor = { id: string; approvedBy?: string };
  return {
    adminSearchPayments: (input: PaymentSearch) => searchPayments(db, input),
    adjustmentTarget: (userId: string) => adjustmentTarget(db, userId),
    applyAdjustment: (
      actor: Actor,
      input: { userId: string; amount: bigint; reason: string; reference?: string },
      claim?: (tx: Tx) => Promise<void>,
    ) => applyAdjustment(deps, actor, input, claim),
    settlementTarget: (settlementId: string, correction?: { amount: bigint; reason: string }) =>
      settlementTarget(db, settlementId, correction),
    applySettlementCorrection: (
      actor: Actor,
      input: { settlementId: string; amount: bigint; reason: string; reference?: string },
      claim?: (tx: Tx) => Promise<void>,
    ) => applySettlementCorrection(deps, actor, input, claim),
  };
}

/** What an operator's wallet correction needs. */
interface AdjustmentDeps {
  db: Db;
  clock: Clock;
  work: Work;
}

/** The customer an adjustment targets (checked before a request waits for a second operator). */
async function adjustmentTarget(db: Db, userId: string) {
  if (!(await profileOf(db, userId))) throw notFound('User');
  return { subjectType: 'user', subjectId: userId };
}

/**
 * Issue 41: what a correction may do to a settlement. The wallet holds what the processor reported for it
 * (`amount`) plus every correction so far; a correction keeps that between nothing and the reported amount, and a
 * second one names an earlier one (its reference) in its reason, so nobody corrects the same top-up twice by mistake.
 */
async function correctionRoom(exec: Db | Tx, settlementId: string, reported: bigint, c: { amount: bigint; reason: string }) {
  const earlier = await rows<{ reference: string; amount: string }>(
    exec,
    sql`SELECT t.reference, COALESCE(sum(e.amount) FILTER (WHERE a.kind = 'wallet'), 0)::text AS amount
        FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN accounts a ON a.id = e.account_id
        WHERE t.type = 'adjustment' AND t.metadata ->> 'settlementId' = ${settlementId}
        GROUP BY t.reference ORDER BY t.reference`,
  );
  const net = earlier.reduce((sum, e) => sum + BigInt(e.amount), reported) + c.amount;
  if (net > reported)
    throw new AppError(
      'CONFLICT',
      `This correction would credit more than the processor reported for the top-up (${formatNaira(reported)}); at most ${formatNaira(reported - (net - c.amount))} more can be credited`,
    );
  if (net < 0n)
    throw new AppError(
      'CONFLICT',
      `This correction would take back more than the top-up brought in; at most ${formatNaira(net - c.amount)} can be debited`,
    );
  if (earlier.length && !earlier.some((e) => c.reason.includes(e.reference)))
    throw new AppError(
      'VALIDATION_FAILED',
      `This top-up was corrected before (${earlier.map((e) => e.reference).join(', ')}): name that correction's reference in the reason`,
      { issues: [{ path: 'reason', message: 'name the earlier correction' }] },
    );
}

/** The settlement a correction targets, with its customer; with the correction, checked against correctionRoom. */
async function settlementTarget(db: Db, settlementId: string, correction?: { amount: bigint; reason: string }) {
  const s = await one<{ user_id: string; processor_reference: string; amount: string }>(
    db,
    sql`SELECT user_id::text AS user_id, processor_reference, amount::text AS amount FROM payment_settlements WHERE id = ${settlementId}`,
  );
  if (!s) throw notFound('Settlement');
  if (correction) await correctionRoom(db, settlementId, BigInt(s.amount), correction);
  return { subjectType: 'payment_settlement', subjectId: settlementId, userId: s.user_id, processorReference: s.processor_reference };
}

/**
 * A signed correction against the adjustments account, audited in the same transaction. `claim` (four-eyes: the
 * approval's conditional claim) runs first inside that transaction, so a refused claim moves nothing.
 */
async function applyAdjustment(
  { db, clock, work }: AdjustmentDeps,
  actor: { id: string; approvedBy?: string },
  input: { userId: string; amount: bigint; reason: string; reference?: string },
  claim?: (tx: Tx) => Promise<void>,
) {
  const { amount } = input;
  await adjustmentTarget(db, input.userId);
  const reference = input.reference ?? prefixedId('adj', clock.now().getTime());
  return db.transaction(async (tx) => {
    await claim?.(tx);
    const change = work
      .change(tx)
      .post({
        reference,
        type: 'adjustment',
        description: `Operator adjustment: ${input.reason}`,
        entries: [
          { account: { user: input.userId, kind: 'wallet' }, amount },
          { account: { system: 'adjustments' }, amount: -amount },
        ],
        metadata: { actorId: actor.id, reason: input.reason, ...(actor.approvedBy ? { approvedBy: actor.approvedBy } : {}) },
      })
      .notify({
        userId: input.userId,
        kind: 'wallet_adjusted',
        title: 'Wallet adjusted',
        body: `An operator ${amount > 0n ? 'credited' : 'debited'} ${formatNaira(amount > 0n ? amount : -amount)}: ${input.reason}`,
        data: { reference, amount: toNaira(amount), reason: input.reason },
      });
    if (amount > 0n) change.emit('wallet.credited', { userId: input.userId, amount, source: 'adjustment', reference });
    const posted = (await change.commit()).posted!;
    return { reference, amount: toNaira(amount), balance: toNaira(posted.balances[`user:${input.userId}:wallet`]) };
  });
}

/**
 * A settlement correction (issue 30): the processor settled a different amount than the wallet was credited
 * (a reversal, a partial charge): the wallet is corrected against the collections account the credit came
 * from, as an adjustment line the customer sees with the reason. `claim` as for applyAdjustment.
 */
async function applySettlementCorrection(
  { db, clock, work }: AdjustmentDeps,
  actor: { id: string; approvedBy?: string },
  input: { settlementId: string; amount: bigint; reason: string; reference?: string },
  claim?: (tx: Tx) => Promise<void>,
) {
  const target = await settlementTarget(db, input.settlementId);
  const { amount } = input;
  const reference = input.reference ?? prefixedId('stc', clock.now().getTime());
  return db.transaction(async (tx) => {
    await claim?.(tx);
    // The settlement's row lock orders corrections of one top-up, so two at once cannot both fit its room.
    const locked = await one<{ amount: string }>(
      tx,
      sql`SELECT amount::text AS amount FROM payment_settlements WHERE id = ${input.settlementId} FOR UPDATE`,
    );
    await correctionRoom(tx, input.settlementId, BigInt(locked!.amount), input);
    const change = work
      .change(tx)
      .post({
        reference,
        type: 'adjustment',
        description: `Top-up correction: ${input.reason}`,
        entries: [
          { account: { user: target.userId, kind: 'wallet' }, amount },
          { account: { system: 'collections' }, amount: -amount },
        ],
        metadata: {
          actorId: actor.id,
          reason: input.reason,
          settlementId: input.settlementId,
          processorReference: target.processorReference,
          ...(actor.approvedBy ? { approvedBy: actor.approvedBy } : {}),
        },
      })
      .notify({
        userId: target.userId,
        kind: 'wallet_adjusted',
        title: 'Top-up corrected',
        body: `A top-up (${target.processorReference}) was corrected: ${amount > 0n ? 'credited' : 'debited'} ${formatNaira(amount > 0n ? amount : -amount)}. ${input.reason}`,
        data: { reference, amount: toNaira(amount) },
      });
    if (amount > 0n) change.emit('wallet.credited', { userId: target.userId, amount, source: 'adjustment', reference });
    const posted = (await change.commit()).posted!;
    return {
      reference,
      userId: target.userId,
      amount: toNaira(amount),
      balance: toNaira(posted.balances[`user:${target.userId}:wallet`]),
    };
  });
}
