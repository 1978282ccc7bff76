import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import { sha256 } from '../../lib/crypto.js';
import type { EventBus } from '../../lib/events.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { faultPoint } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { ProcessorAdapter, ProcessorRegistry } from '../../providers/processor.js';
import type { Notifier } from '../notifications/api.js';
import type { WalletLimits } from '../wallet/api.js';
import { createPaymentsAdmin } from './admin.js';
import { createDedicatedAccounts } from './dedicated-accounts.js';
import { INTENT_COLUMNS, intentView, iso, JOB_CREATE_DVA, JOB_PROCESS_EVENT, type IntentRow } from './model.js';
import { createPaymentsReconciliation } from './reconciliation.js';
import { createSettlement } from './settlement.js';

// The limits, job names and shapes live in model.ts; importers keep using this module.
export * from './model.js';

/**
 * Top-ups (spec 4.4, rule 8, section 6; DESIGN §6). The wallet is credited only from a verified signed
 * charge.success webhook, a server-side verify, or reconciliation (which verifies) — never from a redirect.
 * Exactly-once: every credit posts ledger reference `payin:<processor>:<reference>` with tryPost, and the
 * settlement row is unique on (processor, processor_reference); the database decides, never a prior read.
 */
export interface PaymentsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  ledger: Ledger;
  jobs: JobQueue;
  events: EventBus;
  notifier: Notifier;
  walletLimits: WalletLimits;
  processors: ProcessorRegistry;
  log: Logger;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, clock, ledger, jobs, events, notifier, walletLimits, processors, log } = deps;

  function processorFor(id: string | undefined): ProcessorAdapter {
    if (id === undefined) return processors.default;
    const p = processors.get(id);
    if (!p)
      throw new AppError('VALIDATION_FAILED', `processor must be one of: ${processors.ids().join(', ')}`, {
        issues: [{ path: 'processor', message: 'unknown processor' }],
      });
    return p;
  }

  function adapterOf(id: string): ProcessorAdapter {
    const p = processors.get(id);
    if (!p) throw new Error(`payments: processor ${id} is no longer configured`);
    return p;
  }

  async function ownIntent(exec: Executor, userId: string, reference: string): Promise<IntentRow> {
    const r = await one<IntentRow>(
      exec,
      sql`SELECT ${INTENT_COLUMNS} FROM topup_intents WHERE reference = ${reference} AND user_id = ${userId}`,
    );
    if (!r) throw notFound('Top-up');
    return r;
  }

  async function intentById(exec: Executor, id: string): Promise<IntentRow> {
    return (await one<IntentRow>(exec, sql`SELECT ${INTENT_COLUMNS} FROM topup_intents WHERE id = ${id}`))!;
  }

  const { settleCharge, settleChargeAlone } = createSettlement({ db, clock, ledger, events, notifier, walletLimits, log });
  const { dedicatedAccountOf, dvaView, ensureDedicatedAccount, creditDedicatedAccount } = createDedicatedAccounts({
    db,
    clock,
    processors,
    settleCharge,
  });
  const reconcile = createPaymentsReconciliation({ db, clock, log, processors, adapterOf, settleCharge, creditDedicatedAccount });

  async function startTopup(
    user: AuthUser,
    input: { amount: number; processor?: string; email: string; callbackUrl?: string; origin: 'intent' | 'api' },
  ) {
    const adapter = processorFor(input.processor);
    const amount = toKobo(input.amount);
    // DESIGN §6: refuse up front a top-up that would pass the tier's balance cap.
    const headroom = await walletLimits.balanceHeadroom(db, user.id, user.kycTier);
    if (headroom !== null && amount > headroom) {
      const cap = walletLimits.limitsFor(user.kycTier).balanceCap!;
      throw new AppError(
        'AMOUNT_OUT_OF_RANGE',
        headroom === 0n
          ? `Your wallet is at the ${formatNaira(cap)} balance limit of KYC tier ${user.kycTier}; upgrade your KYC tier to top up`
          : `You can top up at most ${formatNaira(headroom)} now: KYC tier ${user.kycTier} wallets hold at most ${formatNaira(cap)}`,
      );
    }
    const now = clock.now();
    const id = uuid();
    const reference = prefixedId('top', now.getTime());
    // The intent exists before the processor knows the reference, so no payment can arrive for an unknown one.
    await db.execute(sql`INSERT INTO topup_intents (id, user_id, reference, processor, amount, status, origin, email, callback_url, created_at, updated_at)
        VALUES (${id}, ${user.id}, ${reference}, ${adapter.id}, ${amount}, 'pending', ${input.origin}, ${input.email}, ${input.callbackUrl ?? null}, ${now}, ${now})`);
    let init;
    try {
      init = await adapter.initialize({
        email: input.email,
        amount,
        reference,
        callbackUrl: input.callbackUrl,
        metadata: { intentId: id, userId: user.id },
      });
    } catch (err) {
      await db.execute(
        sql`UPDATE topup_intents SET status = 'failed', failure_reason = 'processor refused to start the payment', updated_at = ${clock.now()} WHERE id = ${id}`,
      );
      throw err;
    }
    await db.execute(
      sql`UPDATE topup_intents SET checkout_url = ${init.authorizationUrl}, access_code = ${init.accessCode}, updated_at = ${clock.now()} WHERE id = ${id}`,
    );
    return { intent: await intentById(db, id), accessCode: init.accessCode };
  }

  async function markEvent(exec: Executor, eventId: string, status: string, outcome: string) {
    await exec.execute(
      sql`UPDATE processor_events SET status = ${status}, outcome = ${outcome}, processed_at = ${clock.now()} WHERE id = ${eventId}`,
    );
  }

  return {
    settleCharge,
    ensureDedicatedAccount,
    reconcile,

    /** createTopupIntent: the checkout flow; the processor mails its receipt to the account e-mail. */
    async createTopupIntent(user: AuthUser, input: { amount: number; processor?: string }) {
      const { intent } = await startTopup(user, { ...input, email: user.email, origin: 'intent' });
      return intentView(intent);
    },

    /** startProcessorTopup: the direct processor flow with the client's own callback URL. */
    async startProcessorTopup(user: AuthUser, input: { amount: number; email: string; callbackUrl: string }) {
      const { intent, accessCode } = await startTopup(user, { ...input, origin: 'api' });
      return { ...intentView(intent), authorizationUrl: intent.checkout_url!, accessCode };
    },

    async getTopupIntent(userId: string, reference: string) {
      return intentView(await ownIntent(db, userId, reference));
    },

    /** verifyProcessorTopup (spec 6.5): asks the processor and settles at once when it reports success. */
    async verifyProcessorTopup(userId: string, reference: string) {
      const intent = await ownIntent(db, userId, reference);
      if (intent.status === 'success') return { ...intentView(intent), credited: false };
      const v = await adapterOf(intent.processor).verify(reference);
      const now = clock.now();
      let credited = false;
      if (v.status === 'success' && v.currency === 'NGN' && v.amount > 0n) {
        credited = await db.transaction((tx) =>
          settleCharge(tx, {
            processor: intent.processor,
            reference,
            userId,
            intentId: intent.id,
            kind: 'topup',
            amount: v.amount,
            channel: v.channel,
            paidAt: v.paidAt,
            source: 'verify',
          }),
        );
      } else if (v.status === 'failed' || v.status === 'abandoned') {
        // A later charge.success still credits and turns the intent into success.
        await db.execute(sql`UPDATE topup_intents SET status = ${v.status}, failure_reason = ${`processor reports ${v.status}`}, last_checked_at = ${now}, updated_at = ${now}
            WHERE id = ${intent.id} AND status <> 'success'`);
      } else {
        await db.execute(sql`UPDATE topup_intents SET last_checked_at = ${now} WHERE id = ${intent.id}`);
      }
      return { ...intentView(await intentById(db, intent.id)), credited };
    },

    async getTopupReceipt(userId: string, reference: string) {
      const s = await one<{
        processor: string;
        processor_reference: string;
        kind: string;
        amount: string;
        channel: string | null;
        paid_at: Date | null;
        created_at: Date;
        intent_amount: string | null;
        username: string | null;
        email: string;
      }>(
        db,
        sql`SELECT s.processor, s.processor_reference, s.kind, s.amount::text AS amount, s.channel, s.paid_at, s.created_at,
                   i.amount::text AS intent_amount, u.username, u.email
            FROM payment_settlements s JOIN users u ON u.id = s.user_id LEFT JOIN topup_intents i ON i.id = s.intent_id
            WHERE s.processor_reference = ${reference} AND s.user_id = ${userId}`,
      );
      if (!s) {
        const intent = await ownIntent(db, userId, reference);
        throw new AppError('CONFLICT', `Top-up ${intent.reference} is ${intent.status}; a receipt exists once it is paid`);
      }
      const [local, domain] = s.email.split('@');
      return {
        receipt: {
          reference: s.processor_reference,
          kind: s.kind,
          status: 'success' as const,
          amount: toNaira(s.amount),
          requestedAmount: s.intent_amount === null ? null : toNaira(s.intent_amount),
          currency: 'NGN' as const,
          processor: s.processor,
          channel: s.channel,
          paidAt: iso(s.paid_at ?? s.created_at)!,
          creditedAt: iso(s.created_at)!,
          creditedTo: s.username ? `@${s.username}` : `${local.slice(0, 2)}***@${domain}`,
        },
      };
    },

    async listPaymentHistory(userId: string, limit: number, offset: number) {
      const list = await rows<{
        kind: string;
        reference: string;
        amount: string;
        amount_paid: string | null;
        status: string;
        processor: string;
        channel: string | null;
        created_at: Date;
        settled_at: Date | null;
      }>(
        db,
        sql`SELECT * FROM (
              SELECT 'topup' AS kind, reference, amount::text AS amount, amount_paid::text AS amount_paid, status, processor, channel, created_at, settled_at
              FROM topup_intents WHERE user_id = ${userId}
              UNION ALL
              SELECT 'dva' AS kind, processor_reference, amount::text, amount::text, 'success', processor, channel, created_at, created_at
              FROM payment_settlements WHERE user_id = ${userId} AND intent_id IS NULL
            ) h ORDER BY created_at DESC, reference DESC LIMIT ${limit + 1} OFFSET ${offset}`,
      );
      const items = list.map((r) => ({
        kind: r.kind as 'topup' | 'dva',
        reference: r.reference,
        amount: toNaira(r.amount),
        amountPaid: r.amount_paid === null ? null : toNaira(r.amount_paid),
        status: r.status,
        processor: r.processor,
        channel: r.channel,
        createdAt: iso(r.created_at)!,
        settledAt: iso(r.settled_at),
      }));
      return { items: items.slice(0, limit), limit, offset, hasMore: items.length > limit };
    },

    /**
     * Stores a webhook body whose signature was already checked, and enqueues its processing with it. A first
     * delivery is ONE autocommit statement writing the event and its job together (both or neither). Identical
     * bodies are stored once (the unique payload hash decides); repeats only count.
     */
    async storeEvent(processorId: string, rawBody: Buffer, payload: unknown): Promise<{ eventId: string; duplicate: boolean }> {
      const ev = payload as { event?: unknown; data?: { reference?: unknown } };
      const eventName = typeof ev?.event === 'string' ? ev.event.slice(0, 100) : '(none)';
      const reference = typeof ev?.data?.reference === 'string' ? ev.data.reference.slice(0, 200) : null;
      const hash = sha256(rawBody);
      const now = clock.now();
      const id = uuid();
      const inserted = await one<{ id: string }>(
        db,
        sql`WITH ev AS (
              INSERT INTO processor_events (id, processor, payload_hash, event, reference, payload, status, received_at, last_received_at)
              VALUES (${id}, ${processorId}, ${hash}, ${eventName}, ${reference}, ${JSON.stringify(payload)}::jsonb, 'received', ${now}, ${now})
              ON CONFLICT (payload_hash) DO NOTHING RETURNING id),
            job AS (${jobs.enqueueSql(JOB_PROCESS_EVENT, { eventId: id }, { singletonKey: `processor-event:${id}` }, sql`ev`)})
            SELECT id::text AS id FROM ev`,
      );
      const stored = inserted
        ? { eventId: id, duplicate: false }
        : await db.transaction(async (tx) => {
            const prior = (await one<{ id: string; status: string; deliveries: number }>(
              tx,
              sql`UPDATE processor_events SET deliveries = deliveries + 1, last_received_at = ${clock.now()} WHERE payload_hash = ${hash} RETURNING id, status, deliveries`,
            ))!;
            // A redelivery revives an event whose processing died, so the processor's retries are never wasted.
            if (prior.status === 'failed') {
              await tx.execute(sql`UPDATE processor_events SET status = 'received' WHERE id = ${prior.id}`);
              await jobs.enqueue(
                tx,
                JOB_PROCESS_EVENT,
                { eventId: prior.id },
                { singletonKey: `processor-event:${prior.id}:${prior.deliveries}` },
              );
            }
            return { eventId: prior.id, duplicate: true };
          });
      faultPoint('payments.webhook.afterStore');
      // The credit should follow the webhook within a second, not wait for the worker's next poll.
      if (!stored.duplicate) jobs.nudge();
      return stored;
    },

    /** The job behind the webhook: decides what a stored event means and credits at most once. */
    async processEvent(eventId: string, isLastAttempt: boolean) {
      // One read: the event and the top-up intent of the reference it was stored under (checked below against
      // the reference the adapter parses).
      // The same read answers the 'wallet.credited' subscribers' checks for the intent's owner (an open loan).
      const checks = events.checksSql('wallet.credited', sql`i.user_id`) ?? sql`NULL::json`;
      const ev = await one<{
        id: string;
        processor: string;
        payload: unknown;
        status: string;
        reference: string | null;
        intent_id: string | null;
        intent_user_id: string | null;
        intent_amount: string | null;
        credited_checks: boolean[] | null;
      }>(
        db,
        sql`SELECT e.id, e.processor, e.payload, e.status, e.reference, i.id AS intent_id, i.user_id AS intent_user_id, i.amount::text AS intent_amount,
                   ${checks} AS credited_checks
            FROM processor_events e LEFT JOIN topup_intents i ON e.status = 'received' AND i.reference = e.reference AND i.processor = e.processor
            WHERE e.id = ${eventId}`,
      );
      if (!ev || ev.status !== 'received') return;
      try {
        const adapter = adapterOf(ev.processor);
        const c = adapter.parseEvent(typeof ev.payload === 'string' ? JSON.parse(ev.payload) : ev.payload);
        if (c.event !== 'charge.success') return markEvent(db, ev.id, 'ignored', `event ${c.event} needs no action`);
        if (c.status !== 'success') return markEvent(db, ev.id, 'ignored', `charge status is ${c.status ?? 'missing'}`);
        if (!c.reference || c.amount === null || c.amount <= 0n)
          return markEvent(db, ev.id, 'ignored', 'charge has no reference or no positive amount');
        if (c.currency !== 'NGN') return markEvent(db, ev.id, 'ignored', `currency ${c.currency} is not credited`);
        const reference = c.reference;
        const amount = c.amount;

        const intent =
          ev.reference === reference
            ? ev.intent_id && { id: ev.intent_id, user_id: ev.intent_user_id!, amount: ev.intent_amount!, checks: ev.credited_checks }
            : await one<{ id: string; user_id: string; amount: string }>(
                db,
                sql`SELECT id, user_id, amount::text AS amount FROM topup_intents WHERE reference = ${reference} AND processor = ${ev.processor}`,
              );
        if (intent) {
          const note =
            amount === BigInt(intent.amount) ? '' : `; paid ${formatNaira(amount)} against ${formatNaira(BigInt(intent.amount))} requested`;
          const credited = await settleChargeAlone(
            {
              processor: ev.processor,
              reference,
              userId: intent.user_id,
              intentId: intent.id,
              kind: 'topup',
              amount,
              channel: c.channel,
              paidAt: c.paidAt,
              source: 'webhook',
            },
            { id: ev.id, outcome: `credited ${formatNaira(amount)}${note}` },
            'checks' in intent ? intent.checks : undefined,
          );
          if (!credited) await markEvent(db, ev.id, 'duplicate', 'already credited');
          return;
        }
        if (c.channel === 'dedicated_nuban') {
          const r = await creditDedicatedAccount(ev.processor, c, 'webhook', (tx, credited) =>
            markEvent(
              tx,
              ev.id,
              credited ? 'credited' : 'duplicate',
              credited ? `credited ${formatNaira(amount)} to a dedicated account` : 'already credited',
            ),
          );
          if (r !== 'unmatched') return;
        }
        // Kept for an operator (adminSearchPayments kind=events); nothing is credited without an owner.
        log.warn({ eventId: ev.id, reference }, 'charge.success for an unknown reference');
        return markEvent(db, ev.id, 'unmatched', 'no top-up intent or dedicated account matches this charge');
      } catch (err) {
        if (isLastAttempt) await markEvent(db, ev.id, 'failed', `processing failed: ${(err as Error).message}`.slice(0, 500));
        throw err;
      }
    },

    /** getOrCreateDedicatedAccount (our name for spec 4.1's unnamed operation). */
    getOrCreateDedicatedAccount: (userId: string) => ensureDedicatedAccount(userId),

    async dedicatedAccount(userId: string) {
      const r = await dedicatedAccountOf(db, userId);
      return r ? dvaView(r) : null;
    },

    ...createPaymentsAdmin({ db, clock, ledger, events, notifier }),

    /** kyc.approved (tier >= 2) -> a job creates the dedicated account (enqueued in the approval's transaction). */
    subscribe() {
      events.on('kyc.approved', async (exec, e) => {
        if (e.tier >= 2) await jobs.enqueue(exec, JOB_CREATE_DVA, { userId: e.userId }, { singletonKey: `dva:${e.userId}` });
      });
    },
  };
}
