import { sql } from 'drizzle-orm';

import type { Config } from '../../config.js';

import { one, rows, type Db, type Executor } from '../../db/client.js';

import { AppError, notFound } from '../../kernel/errors.js';

import type { AuthUser } from '../../kernel/actor.js';

import type { JobQueue } from '../../jobs/queue.js';

import type { Clock } from '../../kernel/clock.js';

import type { EventBus } from '../../platform/change.js';
import type { Work } from '../../platform/change.js';

import { prefixedId, uuid } from '../../kernel/ids.js';

import type { Logger } from '../../lib/logger.js';

import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';

import type { ProcessorAdapter, ProcessorRegistry } from '../../providers/processor.js';

import type { WalletLimits } from '../wallet/api.js';

import { createPaymentsAdmin } from './admin.js';

import { createDedicatedAccounts } from './dedicated-accounts.js';

import { INTENT_COLUMNS, intentView, iso, JOB_CREATE_DVA, type IntentRow } from './model.js';
import { createPaymentsReconciliation } from './reconciliation.js';

import { createSettlement } from './settlement.js';

import { createWebhookEvents } from './webhook-events.js';
import { createCreditBatch } from './credit-batch.js';

// The limits, job names and shapes live in model.ts; importers keep using this module.
export * from './model.js';

/**
 * Top-ups (spec 4.4, rule 8, section 6; docs/design.md §6). The wallet is credited only from a verified signed
 * charge.success webhook, a server-side verify, or reconciliation (which verifies) — never from a redirect.
 * Exactly-once: every credit posts ledger reference `payin:<processor>:<reference>` with tryPost, and the
 * settlement row is unique on (processor, processor_reference); the database decides, never a prior read.
 */
export interface PaymentsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobQueue;
  events: EventBus;
  work: Work;
  walletLimits: WalletLimits;
  processors: ProcessorRegistry;
  log: Logger;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, clock, jobs, events, walletLimits, processors, log } = deps;

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

  const { settleCharge, settleChargeAlone } = createSettlement({ db, clock, work: deps.work, walletLimits, log });
  const { dedicatedAccountOf, dvaView, ensureDedicatedAccount, creditDedicatedAccount } = createDedicatedAccounts({
    db,
    clock,
    processors,
    settleCharge,
  });
  const webhookEvents = createWebhookEvents({
    db,
    clock,
    jobs,
    work: deps.work,
    log,
    adapterOf,
    admission: deps.config.webhookAdmission,
    settleChargeAlone,
    creditDedicatedAccount,
    ensureDedicatedAccount,
  });
  const reconcile = createPaymentsReconciliation({ db, clock, log, processors, adapterOf, settleCharge, creditDedicatedAccount });

  async function startTopup(
    user: AuthUser,
    input: { amount: number; processor?: string; email: string; callbackUrl?: string; origin: 'intent' | 'api' },
  ) {
    const adapter = processorFor(input.processor);
    const amount = toKobo(input.amount);
    // docs/design.md §6: refuse up front a top-up that would pass the tier's balance cap.
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
      // The processor's checkout sends the payer to this URL: only our own origin or one the operator listed, so a
      // crafted request cannot turn our checkout into a redirect to someone else's site.
      const allowed = deps.config.topupCallbackOrigins;
      if (!allowed.includes(new URL(input.callbackUrl).origin)) {
        const message = `Callback URL must be on ${allowed.join(' or ')} (the operator can list more origins in TOPUP_CALLBACK_ORIGINS)`;
        throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'callbackUrl', message }] });
      }
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
    ...webhookEvents,
    /** The credit lanes' batch (credit-batch.ts): each event's error or null. */
    processEvents: createCreditBatch({ db, clock, log, adapterOf, settleCharge, processEvent: webhookEvents.processEvent }),

    async dedicatedAccount(userId: string) {
      const r = await dedicatedAccountOf(db, userId);
      return r ? dvaView(r) : null;
    },

    ...createPaymentsAdmin({ db, clock, work: deps.work }),

    /** kyc.approved (tier >= 2) -> a job creates the dedicated account (enqueued in the approval's transaction). */
    subscribe() {
      events.on('kyc.approved', (e, change) => {
        if (e.tier >= 2) change.enqueue(JOB_CREATE_DVA, { userId: e.userId }, { singletonKey: `dva:${e.userId}` });
      });
    },
  };
}
