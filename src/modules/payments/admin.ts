import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import { prefixedId } from '../../kernel/ids.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import { emailsOf, profileOf, userIdByEmail } from '../identity/api.js';
import { intentView, iso, type AdminPaymentItem, type IntentRow } from './model.js';

/** adminSearchPayments' orders; by amount only for intents and settlements (events carry none). */
export const PAYMENT_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type PaymentSort = (typeof PAYMENT_SORTS)[number];
/** Each kind's fixed ORDER BY per sort (the input's text never reaches the statement); amount is the stored bigint. */
const ORDER = {
  intents: {
    newest: sql`i.created_at DESC, i.id`,
    oldest: sql`i.created_at ASC, i.id`,
    amount_desc: sql`i.amount DESC, i.created_at DESC, i.id`,
    amount_asc: sql`i.amount ASC, i.created_at DESC, i.id`,
  },
  settlements: {
    newest: sql`s.created_at DESC, s.id`,
    oldest: sql`s.created_at ASC, s.id`,
    amount_desc: sql`s.amount DESC, s.created_at DESC, s.id`,
    amount_asc: sql`s.amount ASC, s.created_at DESC, s.id`,
  },
  events: { newest: sql`received_at DESC, id`, oldest: sql`received_at ASC, id` },
} satisfies Record<string, Partial<Record<PaymentSort, SQL>>>;

/** The operators' payments operations: searching intents, settlements and webhook events; wallet adjustments. */
export function createPaymentsAdmin(deps: { db: Db; clock: Clock; work: Work }) {
  const { db, clock, work } = deps;

  /** The customer an adjustment targets (checked before a request waits for a second operator). */
  async function adjustmentTarget(userId: string) {
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
  async function settlementTarget(settlementId: string, correction?: { amount: bigint; reason: string }) {
    const s = await one<{ user_id: string; processor_reference: string; amount: string }>(
      db,
      sql`SELECT user_id::text AS user_id, processor_reference, amount::text AS amount FROM payment_settlements WHERE id = ${settlementId}`,
    );
    if (!s) throw notFound('Settlement');
    if (correction) await correctionRoom(db, settlementId, BigInt(s.amount), correction);
    return { subjectType: 'payment_settlement', subjectId: settlementId, userId: s.user_id, processorReference: s.processor_reference };
  }

  return {
    async adminSearchPayments(input: {
      kind: 'intents' | 'settlements' | 'events';
      reference?: string;
      userId?: string;
      email?: string;
      status?: string;
      flagged?: boolean;
      /** Intents paid less or more than they asked (issue 44). */
      paid?: 'different';
      sort?: PaymentSort;
      limit: number;
      offset: number;
    }) {
      const sort = input.sort ?? 'newest';
      const ref = input.reference ?? null;
      const uid = input.userId ?? null;
      const email = input.email?.toLowerCase() ?? null;
      const status = input.status ?? null;
      const lim = input.limit + 1;
      // An e-mail is identity's to resolve: intents and settlements are then filtered by its customer, and nobody
      // with it matches none (events have no customer, and ignore it).
      const byEmail = email === null || input.kind === 'events' ? null : await userIdByEmail(db, email);
      if (email !== null && input.kind !== 'events' && byEmail === null)
        return { items: [], limit: input.limit, offset: input.offset, hasMore: false };
      let items: AdminPaymentItem[];
      if (input.kind === 'intents') {
        const list = await rows<IntentRow>(
          db,
          sql`SELECT ${sql.raw('i.id, i.user_id, i.reference, i.processor, i.amount::text AS amount, i.status, i.origin, i.email, i.checkout_url, i.access_code, i.amount_paid::text AS amount_paid, i.channel, i.paid_at, i.settled_at, i.failure_reason, i.created_at')}
              FROM topup_intents i
              WHERE (${ref}::text IS NULL OR i.reference = ${ref}) AND (${uid}::uuid IS NULL OR i.user_id = ${uid}::uuid)
                AND (${byEmail}::uuid IS NULL OR i.user_id = ${byEmail}::uuid) AND (${status}::text IS NULL OR i.status = ${status})
                AND (${input.paid === 'different'}::boolean IS FALSE OR i.amount_paid <> i.amount)
              ORDER BY ${ORDER.intents[sort]} LIMIT ${lim} OFFSET ${input.offset}`,
        );
        const emails = await emailsOf(
          db,
          list.map((r) => r.user_id),
        );
        items = list.map((r) => ({ kind: 'intent' as const, ...intentView(r), userId: r.user_id, userEmail: emails.get(r.user_id)! }));
      } else if (input.kind === 'settlements') {
        const flagged = input.flagged ?? null;
        const list = await rows<{
          id: string;
          processor: string;
          processor_reference: string;
          user_id: string;
          kind: string;
          amount: string;
          channel: string | null;
          source: string;
          over_cap: boolean;
          created_at: Date;
        }>(
          db,
          sql`SELECT s.id, s.processor, s.processor_reference, s.user_id, s.kind, s.amount::text AS amount, s.channel, s.source, s.over_cap, s.created_at
              FROM payment_settlements s
              WHERE (${ref}::text IS NULL OR s.processor_reference = ${ref}) AND (${uid}::uuid IS NULL OR s.user_id = ${uid}::uuid)
                AND (${byEmail}::uuid IS NULL OR s.user_id = ${byEmail}::uuid) AND (${flagged}::boolean IS NULL OR s.over_cap = ${flagged})
              ORDER BY ${ORDER.settlements[sort]} LIMIT ${lim} OFFSET ${input.offset}`,
        );
        const emails = await emailsOf(
          db,
          list.map((r) => r.user_id),
        );
        items = list.map((r) => ({
          kind: 'settlement' as const,
          id: r.id,
          reference: r.processor_reference,
          processor: r.processor,
          userId: r.user_id,
          userEmail: emails.get(r.user_id)!,
          settlementKind: r.kind,
          amount: toNaira(r.amount),
          channel: r.channel,
          source: r.source,
          flagged: r.over_cap,
          createdAt: iso(r.created_at)!,
        }));
      } else {
        const list = await rows<{
          id: string;
          processor: string;
          event: string;
          reference: string | null;
          status: string;
          outcome: string | null;
          deliveries: number;
          received_at: Date;
          processed_at: Date | null;
        }>(
          db,
          sql`SELECT id, processor, event, reference, status, outcome, deliveries, received_at, processed_at FROM processor_events
              WHERE (${ref}::text IS NULL OR reference = ${ref}) AND (${status}::text IS NULL OR status = ${status})
              ORDER BY ${ORDER.events[sort === 'oldest' ? 'oldest' : 'newest']} LIMIT ${lim} OFFSET ${input.offset}`,
        );
        items = list.map((r) => ({
          kind: 'event' as const,
          id: r.id,
          processor: r.processor,
          event: r.event,
          reference: r.reference,
          status: r.status,
          outcome: r.outcome,
          deliveries: r.deliveries,
          createdAt: iso(r.received_at)!,
          processedAt: iso(r.processed_at),
        }));
      }
      return { items: items.slice(0, input.limit), limit: input.limit, offset: input.offset, hasMore: items.length > input.limit };
    },

    adjustmentTarget,

    /**
     * A signed correction against the adjustments account, audited in the same transaction. `claim` (four-eyes: the
     * approval's conditional claim) runs first inside that transaction, so a refused claim moves nothing.
     */
    async applyAdjustment(
      actor: { id: string; approvedBy?: string },
      input: { userId: string; amount: bigint; reason: string; reference?: string },
      claim?: (tx: Tx) => Promise<void>,
    ) {
      const { amount } = input;
      await adjustmentTarget(input.userId);
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
    },

    settlementTarget,

    /**
     * A settlement correction (issue 30): the processor settled a different amount than the wallet was credited
     * (a reversal, a partial charge): the wallet is corrected against the collections account the credit came
     * from, as an adjustment line the customer sees with the reason. `claim` as for applyAdjustment.
     */
    async applySettlementCorrection(
      actor: { id: string; approvedBy?: string },
      input: { settlementId: string; amount: bigint; reason: string; reference?: string },
      claim?: (tx: Tx) => Promise<void>,
    ) {
      const target = await settlementTarget(input.settlementId);
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
    },
  };
}
