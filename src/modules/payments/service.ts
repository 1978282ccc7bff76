import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { one, rows, type Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import type { Logger } from '../../lib/logger.js';
import type { EventBus, Work } from '../../platform/change.js';
import type { ProcessorAdapter, ProcessorRegistry } from '../../providers/processor.js';
import type { WalletLimits } from '../wallet/api.js';
import { createPaymentsAdmin } from './admin.js';
import { createCreditBatch } from './credit-batch.js';
import { createDedicatedAccounts, dedicatedAccountOf, dvaView } from './dedicated-accounts.js';
import { iso, JOB_CREATE_DVA } from './model.js';
import { createPaymentsReconciliation } from './reconciliation.js';
import { createSettlement } from './settlement.js';
import { createTopupIntent, getTopupIntent, ownIntent, startProcessorTopup, verifyProcessorTopup, type Topups } from './topups.js';
import { createWebhookEvents } from './webhook-events.js';
import { createWithdrawals } from './withdrawals.js';

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
  const { db, clock, jobs, work, walletLimits, processors, log } = deps;
  const adapterOf = (id: string) => configuredAdapter(processors, id);
  const { settleCharge, settleChargeAlone } = createSettlement({ db, clock, work, walletLimits, log });
  const { ensureDedicatedAccount, creditDedicatedAccount } = createDedicatedAccounts({ db, clock, processors, settleCharge });
  const admission = deps.config.webhookAdmission;
  const dva = { ensureDedicatedAccount, creditDedicatedAccount };
  const withdrawals = createWithdrawals({
    db,
    clock,
    work,
    jobs,
    walletLimits,
    processors,
    fee: deps.config.withdrawalFee,
    stuckAfterMs: deps.config.withdrawalStuckAfterMs,
    log,
  });
  const { transferEvent } = withdrawals;
  const webhookEvents = createWebhookEvents({ db, clock, jobs, work, log, adapterOf, admission, settleChargeAlone, transferEvent, ...dva });
  const reconcile = createPaymentsReconciliation({ db, clock, log, processors, adapterOf, settleCharge, creditDedicatedAccount });
  const processorFor = (id: string | undefined) => requestedProcessor(processors, id);
  const callbackOrigins = deps.config.topupCallbackOrigins;
  const topups: Topups = { db, clock, walletLimits, processorFor, adapterOf, settleCharge, callbackOrigins };

  return {
    settleCharge,
    ensureDedicatedAccount,
    reconcile,

    /** createTopupIntent: the checkout flow; the processor mails its receipt to the account e-mail. */
    createTopupIntent: (user: AuthUser, input: { amount: number; processor?: string }) => createTopupIntent(topups, user, input),
    /** startProcessorTopup: the direct processor flow with the client's own callback URL. */
    startProcessorTopup: (user: AuthUser, input: { amount: number; email: string; callbackUrl: string }) =>
      startProcessorTopup(topups, user, input),
    getTopupIntent: (userId: string, reference: string) => getTopupIntent(db, userId, reference),
    /** verifyProcessorTopup (spec 6.5): asks the processor and settles at once when it reports success. */
    verifyProcessorTopup: (userId: string, reference: string) => verifyProcessorTopup(topups, userId, reference),
    getTopupReceipt: (userId: string, reference: string) => getTopupReceipt(db, userId, reference),
    listPaymentHistory: (userId: string, limit: number, offset: number) => listPaymentHistory(db, userId, limit, offset),

    /**
     * Stores a webhook body whose signature was already checked, and enqueues its processing with it. A first
     * delivery writes the event and its job in one transaction and one round trip (both or neither). Identical
     * bodies are stored once (the unique payload hash decides); repeats only count.
     */
    ...webhookEvents,
    /** The credit lanes' batch (credit-batch.ts): each event's error or null. */
    processEvents: createCreditBatch({ db, clock, log, adapterOf, settleCharge, processEvent: webhookEvents.processEvent }),

    dedicatedAccount: (userId: string) => dedicatedAccount(db, userId),

    /** Withdrawals to a bank account (issue 43): options, name enquiry, the withdrawal, its status and its jobs. */
    ...withdrawals,

    ...createPaymentsAdmin({ db, clock, work }),

    /** kyc.approved (tier >= 2) -> a job creates the dedicated account (enqueued in the approval's transaction). */
    subscribe: () => subscribe(deps.events),
  };
}

/** The processor a caller asked for (the default when none); an unknown one is a VALIDATION_FAILED. */
function requestedProcessor(processors: ProcessorRegistry, id: string | undefined): ProcessorAdapter {
  if (id === undefined) return processors.default;
  const p = processors.get(id);
  if (!p)
    throw new AppError('VALIDATION_FAILED', `processor must be one of: ${processors.ids().join(', ')}`, {
      issues: [{ path: 'processor', message: 'unknown processor' }],
    });
  return p;
}

/** The adapter of a processor a stored row names; one no longer configured is an internal error. */
function configuredAdapter(processors: ProcessorRegistry, id: string): ProcessorAdapter {
  const p = processors.get(id);
  if (!p) throw new Error(`payments: processor ${id} is no longer configured`);
  return p;
}

/** The user's dedicated account as the API shows it, or null. */
async function dedicatedAccount(db: Db, userId: string) {
  const r = await dedicatedAccountOf(db, userId);
  return r ? dvaView(r) : null;
}

function subscribe(events: EventBus) {
  events.on('kyc.approved', (e, change) => {
    if (e.tier >= 2) change.enqueue(JOB_CREATE_DVA, { userId: e.userId }, { singletonKey: `dva:${e.userId}` });
  });
}

/** getTopupReceipt: a paid top-up's (or dedicated account transfer's) receipt; an unpaid one is a CONFLICT. */
export async function getTopupReceipt(db: Db, userId: string, reference: string) {
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
}

/** listPaymentHistory: top-ups and dedicated account transfers, newest first, a page at a time. */
export async function listPaymentHistory(db: Db, userId: string, limit: number, offset: number) {
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
}
