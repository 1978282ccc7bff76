import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { one, rows, type Db, type Executor, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../http/errors.js';
import type { AuthUser } from '../../http/registry.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger, PostInput, Posted, PostRider } from '../../ledger/ledger.js';
import { DAY, HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import { sha256 } from '../../lib/crypto.js';
import type { EventBus } from '../../lib/events.js';
import { prefixedId, uuid } from '../../lib/ids.js';
import { faultPoint } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira, toKobo, toNaira } from '../../lib/money.js';
import type { ChargeEvent, ProcessorAdapter, ProcessorRegistry } from '../../providers/processor.js';
import type { Notifier } from '../notifications/notifier.js';
import type { WalletLimits } from '../wallet/limits.js';

/**
 * Top-ups (spec 4.4, rule 8, section 6; DESIGN §6). The wallet is credited only from a verified signed
 * charge.success webhook, a server-side verify, or reconciliation (which verifies) — never from a redirect.
 * Exactly-once: every credit posts ledger reference `payin:<processor>:<reference>` with tryPost, and the
 * settlement row is unique on (processor, processor_reference); the database decides, never a prior read.
 */
export const TOPUP_MIN_NAIRA = 100;
export const TOPUP_MAX_NAIRA = 1_000_000;
/** An intent with no payment this long after creation is marked abandoned by reconciliation. */
export const ABANDON_AFTER_MS = HOUR;
/** Reconciliation looks back this far for intents that are not settled. */
export const RECONCILE_WINDOW_MS = 7 * DAY;
/** The daily run leaves intents this young to the webhook. */
export const RECONCILE_MIN_AGE_MS = 10 * MINUTE;
/** Dedicated-account transfers are looked up over this window of the processor's successful charges. */
export const DVA_RECONCILE_WINDOW_MS = 2 * DAY;

export const JOB_PROCESS_EVENT = 'payments.processEvent';
export const JOB_CREATE_DVA = 'payments.createDedicatedAccount';
export const JOB_RECONCILE = 'payments.reconcile';

export type IntentStatus = 'pending' | 'success' | 'failed' | 'abandoned';

interface IntentRow {
  id: string;
  user_id: string;
  reference: string;
  processor: string;
  amount: string;
  status: IntentStatus;
  origin: string;
  email: string;
  checkout_url: string | null;
  access_code: string | null;
  amount_paid: string | null;
  channel: string | null;
  paid_at: Date | null;
  settled_at: Date | null;
  failure_reason: string | null;
  created_at: Date;
}

const INTENT_COLUMNS = sql.raw(
  `id, user_id, reference, processor, amount::text AS amount, status, origin, email, checkout_url, access_code,
   amount_paid::text AS amount_paid, channel, paid_at, settled_at, failure_reason, created_at`,
);

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function intentView(r: IntentRow) {
  return {
    id: r.id,
    reference: r.reference,
    amount: toNaira(r.amount),
    status: r.status,
    checkoutUrl: r.checkout_url ?? '',
    processor: r.processor,
    createdAt: iso(r.created_at)!,
    amountPaid: r.amount_paid === null ? null : toNaira(r.amount_paid),
    channel: r.channel,
    paidAt: iso(r.paid_at),
    settledAt: iso(r.settled_at),
    failureReason: r.failure_reason,
  };
}

export interface AdminPaymentItem {
  kind: 'intent' | 'settlement' | 'event';
  id: string;
  reference: string | null;
  processor: string;
  createdAt: string;
  [field: string]: unknown;
}

export interface SettleInput {
  processor: string;
  reference: string;
  userId: string;
  intentId: string | null;
  kind: 'topup' | 'dva';
  amount: bigint;
  channel: string | null;
  paidAt: Date | null;
  source: 'webhook' | 'verify' | 'reconciliation';
}

/** Optional KYC hook (issue: KYC engineer): Tier 2 with a name matching the profile. */
export type KycEligibility =
  | {
      assertTransferEligible?: (userId: string, exec?: undefined, prefetched?: { kyc_tier: number; full_name: string | null; verified_name: string | null } | null) => Promise<void>;
      eligibilitySql?: (userId: string) => SQL;
    }
  | undefined;

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
    if (!p) throw new AppError('VALIDATION_FAILED', `processor must be one of: ${processors.ids().join(', ')}`, { issues: [{ path: 'processor', message: 'unknown processor' }] });
    return p;
  }

  function adapterOf(id: string): ProcessorAdapter {
    const p = processors.get(id);
    if (!p) throw new Error(`payments: processor ${id} is no longer configured`);
    return p;
  }

  async function ownIntent(exec: Executor, userId: string, reference: string): Promise<IntentRow> {
    const r = await one<IntentRow>(exec, sql`SELECT ${INTENT_COLUMNS} FROM topup_intents WHERE reference = ${reference} AND user_id = ${userId}`);
    if (!r) throw notFound('Top-up');
    return r;
  }

  async function intentById(exec: Executor, id: string): Promise<IntentRow> {
    return (await one<IntentRow>(exec, sql`SELECT ${INTENT_COLUMNS} FROM topup_intents WHERE id = ${id}`))!;
  }

  /** A credit's ledger reference: unique, so each processor reference is credited at most once. */
  const ledgerRefOf = (s: SettleInput) => `payin:${s.processor}:${s.reference}`;

  /**
   * The credit's posting: the money, and riding on its statement (so written exactly when the money moves) the
   * settlement row, the intent's success, the event's outcome, a wallet flag when the balance after passes the
   * owner's KYC tier cap at that moment (DESIGN §6: money that arrived is never dropped; passing the cap only flags
   * the wallet for an operator), and the owner's notification.
   */
  function chargePosting(s: SettleInput, event?: { id: string; outcome: string }): PostInput {
    const now = clock.now();
    const ledgerRef = ledgerRefOf(s);
    const wallet = `user:${s.userId}:wallet`;
    const settlement: PostRider = {
      ctes: (posted, p) => {
        const name = (n: string) => sql.raw(`${p}${n}`);
        const parts = [
          sql`${name('c')} AS (
            SELECT (posted.balances ->> ${wallet}::text)::bigint AS balance_after, o.kyc_tier, ${walletLimits.balanceCapSql(sql`o.kyc_tier`)} AS cap
            FROM ${posted}, (SELECT COALESCE((SELECT kyc_tier FROM users WHERE id = ${s.userId}::uuid), 0) AS kyc_tier) o)`,
          sql`${name('s')} AS (
            INSERT INTO payment_settlements (id, processor, processor_reference, user_id, intent_id, kind, amount, channel, source, ledger_reference, over_cap, paid_at, created_at)
            SELECT ${uuid()}::uuid, ${s.processor}::text, ${s.reference}::text, ${s.userId}::uuid, ${s.intentId}::uuid, ${s.kind}::text, ${s.amount}::bigint, ${s.channel}::text,
                   ${s.source}::text, ${ledgerRef}::text, COALESCE(c.balance_after > c.cap, false), ${s.paidAt}::timestamptz, ${now}::timestamptz
            FROM ${name('c')} c)`,
          sql`${name('f')} AS (
            INSERT INTO wallet_flags (id, user_id, kind, reference, details, created_at)
            SELECT ${uuid()}::uuid, ${s.userId}::uuid, 'balance_cap_exceeded', ${ledgerRef}::text,
                   jsonb_build_object('balanceAfter', round(c.balance_after / 100.0, 2), 'cap', round(c.cap / 100.0, 2), 'tier', c.kyc_tier), ${now}::timestamptz
            FROM ${name('c')} c WHERE c.balance_after > c.cap
            ON CONFLICT (kind, reference) DO NOTHING)`,
        ];
        if (s.intentId) {
          parts.push(sql`${name('i')} AS (
            UPDATE topup_intents SET status = 'success', amount_paid = ${s.amount}::bigint, channel = ${s.channel}::text, paid_at = ${s.paidAt ?? now}::timestamptz,
                   settled_at = ${now}::timestamptz, failure_reason = NULL, updated_at = ${now}::timestamptz
            FROM ${posted} WHERE topup_intents.id = ${s.intentId}::uuid)`);
        }
        if (event) {
          parts.push(sql`${name('e')} AS (
            UPDATE processor_events SET status = 'credited', outcome = ${event.outcome}::text, processed_at = ${now}::timestamptz
            FROM ${posted} WHERE processor_events.id = ${event.id}::uuid)`);
        }
        return sql.join(parts, sql`, `);
      },
    };
    return {
      reference: ledgerRef,
      type: s.kind === 'dva' ? 'dva_credit' : 'topup',
      description: s.kind === 'dva' ? 'Transfer into your dedicated account' : 'Wallet top-up',
      entries: [
        { account: { user: s.userId, kind: 'wallet' }, amount: s.amount },
        { account: { system: 'collections' }, amount: -s.amount },
      ],
      metadata: { processor: s.processor, reference: s.reference, source: s.source, channel: s.channel },
      riders: [
        settlement,
        notifier.onPosting([
          {
            userId: s.userId,
            kind: 'topup_credited',
            title: 'Wallet funded',
            body: `${formatNaira(s.amount)} was added to your wallet.`,
            data: { reference: s.reference, amount: toNaira(s.amount), source: s.kind },
          },
        ]),
      ],
    };
  }

  const creditedEvent = (s: SettleInput) =>
    ({ userId: s.userId, amount: s.amount, source: s.kind === 'dva' ? 'dva' : 'topup', reference: ledgerRefOf(s) }) as const;

  /**
   * Logs a credit whose rider flagged the wallet, for operators; the flag is looked up only when the balance after
   * could pass some tier's cap.
   */
  async function logIfFlagged(exec: Executor, s: SettleInput, posted: Posted): Promise<void> {
    const lowest = walletLimits.lowestBalanceCap();
    if (lowest === null || posted.balances[`user:${s.userId}:wallet`] <= lowest) return;
    const reference = ledgerRefOf(s);
    if (await one(exec, sql`SELECT 1 AS x FROM wallet_flags WHERE kind = 'balance_cap_exceeded' AND reference = ${reference}`)) {
      log.warn({ userId: s.userId, reference }, 'credit passed the tier balance cap; wallet flagged for an operator');
    }
  }

  /**
   * Credits the wallet once per processor reference, inside the caller's transaction (a reused ledger reference
   * credits nothing). `event` (the webhook job) is marked credited with that outcome by the posting's statement;
   * when nothing is credited the caller marks it. True when this call credited.
   */
  async function settleCharge(tx: Tx, s: SettleInput, event?: { id: string; outcome: string }): Promise<boolean> {
    const posted = await ledger.tryPost(tx, chargePosting(s, event));
    if (!posted) return false;
    await logIfFlagged(tx, s, posted);
    await events.emit(tx, 'wallet.credited', creditedEvent(s));
    return true;
  }

  /**
   * settleCharge as a transaction of its own (the webhook's credit job). Usually no subscriber needs the
   * 'wallet.credited' event (no open loan to repay): the credit, its settlement, intent, event outcome and
   * notification are then ONE autocommit statement (issue 11: credits must drain faster than webhooks arrive).
   */
  async function settleChargeAlone(
    s: SettleInput,
    event: { id: string; outcome: string },
    /** The subscribers' checks as answered by the caller's read (events.checksSql); omitted, they are asked here. */
    checks?: boolean[] | null,
  ): Promise<boolean> {
    const credited = checks !== undefined ? events.prepared('wallet.credited', creditedEvent(s), checks) : await events.prepare(db, 'wallet.credited', creditedEvent(s));
    if (credited.subscribers > 0) {
      return db.transaction(async (tx) => {
        const r = await settleCharge(tx, s, event);
        faultPoint('payments.credit.beforeCommit');
        return r;
      });
    }
    faultPoint('payments.credit.beforeCommit');
    let posted: Posted;
    try {
      posted = await ledger.postAlone(db, chargePosting(s, event));
    } catch (err) {
      if (err instanceof AppError && err.code === 'DUPLICATE_REFERENCE') return false;
      throw err;
    }
    await logIfFlagged(db, s, posted);
    return true;
  }

  async function startTopup(user: AuthUser, input: { amount: number; processor?: string; email: string; callbackUrl?: string; origin: 'intent' | 'api' }) {
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
      init = await adapter.initialize({ email: input.email, amount, reference, callbackUrl: input.callbackUrl, metadata: { intentId: id, userId: user.id } });
    } catch (err) {
      await db.execute(sql`UPDATE topup_intents SET status = 'failed', failure_reason = 'processor refused to start the payment', updated_at = ${clock.now()} WHERE id = ${id}`);
      throw err;
    }
    await db.execute(sql`UPDATE topup_intents SET checkout_url = ${init.authorizationUrl}, access_code = ${init.accessCode}, updated_at = ${clock.now()} WHERE id = ${id}`);
    return { intent: await intentById(db, id), accessCode: init.accessCode };
  }

  async function markEvent(exec: Executor, eventId: string, status: string, outcome: string) {
    await exec.execute(sql`UPDATE processor_events SET status = ${status}, outcome = ${outcome}, processed_at = ${clock.now()} WHERE id = ${eventId}`);
  }

  async function dedicatedAccountOf(exec: Executor, userId: string) {
    return one<{ processor: string; account_number: string; account_name: string; bank_name: string; created_at: Date }>(
      exec,
      sql`SELECT processor, account_number, account_name, bank_name, created_at FROM dedicated_accounts WHERE user_id = ${userId}`,
    );
  }

  const dvaView = (r: { account_number: string; account_name: string; bank_name: string; processor: string; created_at: Date }) => ({
    accountNumber: r.account_number,
    accountName: r.account_name,
    bankName: r.bank_name,
    processor: r.processor,
    createdAt: iso(r.created_at)!,
  });

  async function ensureDedicatedAccount(userId: string) {
    const existing = await dedicatedAccountOf(db, userId);
    if (existing) return dvaView(existing);
    const u = await one<{ email: string; full_name: string | null; username: string | null; phone: string | null; status: string }>(
      db,
      sql`SELECT email, full_name, username, phone, status FROM users WHERE id = ${userId}`,
    );
    if (!u || u.status !== 'active') throw notFound('User');
    const names = (u.full_name ?? u.username ?? u.email.split('@')[0]).trim().split(/\s+/);
    const adapter = processors.default;
    // The processor answers the same customer's account again on a repeat call, so a retry or a race is safe:
    // the primary key on user_id keeps one row. No conflict target: two racing calls insert the same account
    // number too, and PostgreSQL raises a unique violation on a non-arbiter index instead of doing nothing.
    const acc = await adapter.createDedicatedAccount({ email: u.email, firstName: names[0], lastName: names.slice(1).join(' ') || names[0], phone: u.phone });
    await db.execute(sql`INSERT INTO dedicated_accounts (user_id, processor, customer_code, account_number, account_name, bank_name, provider_id, created_at)
        VALUES (${userId}, ${adapter.id}, ${acc.customerCode}, ${acc.accountNumber}, ${acc.accountName}, ${acc.bankName}, ${acc.providerId}, ${clock.now()})
        ON CONFLICT DO NOTHING`);
    const row = await dedicatedAccountOf(db, userId);
    // Only a processor handing one account number to two customers leaves no row for this user.
    if (!row) throw new AppError('UPSTREAM_ERROR', `The payment processor answered account ${acc.accountNumber}, which belongs to another customer`);
    return dvaView(row);
  }

  /** A transfer into a dedicated account (channel dedicated_nuban) credits the account's owner, once. */
  async function creditDedicatedAccount(
    processorId: string,
    c: ChargeEvent,
    source: SettleInput['source'],
    alsoInTx?: (tx: Tx, credited: boolean) => Promise<void>,
  ): Promise<'credited' | 'duplicate' | 'unmatched'> {
    if (!c.reference || c.amount === null || c.amount <= 0n) return 'unmatched';
    const dva = await one<{ user_id: string }>(
      db,
      sql`SELECT user_id FROM dedicated_accounts WHERE processor = ${processorId}
            AND (account_number = ${c.receiverAccountNumber ?? ''} OR customer_code = ${c.customerCode ?? ''})
          ORDER BY (account_number = ${c.receiverAccountNumber ?? ''}) DESC LIMIT 1`,
    );
    if (!dva) return 'unmatched';
    const reference = c.reference;
    const amount = c.amount;
    return db.transaction(async (tx) => {
      const credited = await settleCharge(tx, { processor: processorId, reference, userId: dva.user_id, intentId: null, kind: 'dva', amount, channel: c.channel, paidAt: c.paidAt, source });
      if (alsoInTx) await alsoInTx(tx, credited);
      return credited ? 'credited' : 'duplicate';
    });
  }

  async function reconcile(opts: { minAgeMs?: number } = {}) {
    const now = clock.now();
    const summary = { checked: 0, settled: 0, failed: 0, abandoned: 0, errors: 0 };
    const open = await rows<IntentRow>(
      db,
      sql`SELECT ${INTENT_COLUMNS} FROM topup_intents
          WHERE status <> 'success'
            AND (checkout_url IS NOT NULL OR status = 'pending')
            AND created_at > ${new Date(now.getTime() - RECONCILE_WINDOW_MS)}
            AND created_at <= ${new Date(now.getTime() - (opts.minAgeMs ?? RECONCILE_MIN_AGE_MS))}
          ORDER BY created_at LIMIT 1000`,
    );
    for (const intent of open) {
      summary.checked++;
      let v;
      try {
        v = await adapterOf(intent.processor).verify(intent.reference);
      } catch (err) {
        summary.errors++;
        log.warn({ reference: intent.reference, err: (err as Error).message }, 'reconciliation could not verify a top-up');
        continue;
      }
      if (v.status === 'success' && v.currency === 'NGN' && v.amount > 0n) {
        const credited = await db.transaction((tx) =>
          settleCharge(tx, { processor: intent.processor, reference: intent.reference, userId: intent.user_id, intentId: intent.id, kind: 'topup', amount: v.amount, channel: v.channel, paidAt: v.paidAt, source: 'reconciliation' }),
        );
        if (credited) summary.settled++;
        continue;
      }
      let next: IntentStatus | null = null;
      if (v.status === 'failed' && intent.status !== 'failed') next = 'failed';
      else if (intent.status === 'pending' && now.getTime() - new Date(intent.created_at).getTime() >= ABANDON_AFTER_MS) next = 'abandoned';
      if (next) {
        await db.execute(sql`UPDATE topup_intents SET status = ${next}, failure_reason = ${`processor reports ${v.status}`}, last_checked_at = ${now}, updated_at = ${now}
            WHERE id = ${intent.id} AND status <> 'success'`);
        summary[next === 'failed' ? 'failed' : 'abandoned']++;
      } else {
        await db.execute(sql`UPDATE topup_intents SET last_checked_at = ${now} WHERE id = ${intent.id}`);
      }
    }
    // Transfers into dedicated accounts have no intent to verify: list the processor's successful charges of the
    // last two days and settle the dedicated_nuban ones no webhook brought (settleCharge skips credited ones).
    for (const id of processors.ids()) {
      let charges: ChargeEvent[];
      try {
        charges = await adapterOf(id).listSuccessfulCharges(new Date(now.getTime() - DVA_RECONCILE_WINDOW_MS), new Date(now.getTime() + 5 * MINUTE));
      } catch (err) {
        summary.errors++;
        log.warn({ processor: id, err: (err as Error).message }, 'reconciliation could not list processor charges');
        continue;
      }
      for (const c of charges) {
        if (c.channel !== 'dedicated_nuban' || c.status !== 'success' || c.currency !== 'NGN') continue;
        summary.checked++;
        if ((await creditDedicatedAccount(id, c, 'reconciliation')) === 'credited') summary.settled++;
      }
    }
    log.info({ ...summary }, 'payments reconciliation finished');
    return summary;
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
          settleCharge(tx, { processor: intent.processor, reference, userId, intentId: intent.id, kind: 'topup', amount: v.amount, channel: v.channel, paidAt: v.paidAt, source: 'verify' }),
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
      const s = await one<{ processor: string; processor_reference: string; kind: string; amount: string; channel: string | null; paid_at: Date | null; created_at: Date; intent_amount: string | null; username: string | null; email: string }>(
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
      const list = await rows<{ kind: string; reference: string; amount: string; amount_paid: string | null; status: string; processor: string; channel: string | null; created_at: Date; settled_at: Date | null }>(
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
              await jobs.enqueue(tx, JOB_PROCESS_EVENT, { eventId: prior.id }, { singletonKey: `processor-event:${prior.id}:${prior.deliveries}` });
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
      const ev = await one<{ id: string; processor: string; payload: unknown; status: string; reference: string | null; intent_id: string | null; intent_user_id: string | null; intent_amount: string | null; credited_checks: boolean[] | null }>(
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
        if (!c.reference || c.amount === null || c.amount <= 0n) return markEvent(db, ev.id, 'ignored', 'charge has no reference or no positive amount');
        if (c.currency !== 'NGN') return markEvent(db, ev.id, 'ignored', `currency ${c.currency} is not credited`);
        const reference = c.reference;
        const amount = c.amount;

        const intent =
          ev.reference === reference
            ? ev.intent_id && { id: ev.intent_id, user_id: ev.intent_user_id!, amount: ev.intent_amount!, checks: ev.credited_checks }
            : await one<{ id: string; user_id: string; amount: string }>(db, sql`SELECT id, user_id, amount::text AS amount FROM topup_intents WHERE reference = ${reference} AND processor = ${ev.processor}`);
        if (intent) {
          const note = amount === BigInt(intent.amount) ? '' : `; paid ${formatNaira(amount)} against ${formatNaira(BigInt(intent.amount))} requested`;
          const credited = await settleChargeAlone(
            { processor: ev.processor, reference, userId: intent.user_id, intentId: intent.id, kind: 'topup', amount, channel: c.channel, paidAt: c.paidAt, source: 'webhook' },
            { id: ev.id, outcome: `credited ${formatNaira(amount)}${note}` },
            'checks' in intent ? intent.checks : undefined,
          );
          if (!credited) await markEvent(db, ev.id, 'duplicate', 'already credited');
          return;
        }
        if (c.channel === 'dedicated_nuban') {
          const r = await creditDedicatedAccount(ev.processor, c, 'webhook', (tx, credited) =>
            markEvent(tx, ev.id, credited ? 'credited' : 'duplicate', credited ? `credited ${formatNaira(amount)} to a dedicated account` : 'already credited'),
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

    async adminSearchPayments(input: { kind: 'intents' | 'settlements' | 'events'; reference?: string; userId?: string; email?: string; status?: string; flagged?: boolean; limit: number; offset: number }) {
      const ref = input.reference ?? null;
      const uid = input.userId ?? null;
      const email = input.email?.toLowerCase() ?? null;
      const status = input.status ?? null;
      const lim = input.limit + 1;
      let items: AdminPaymentItem[];
      if (input.kind === 'intents') {
        const list = await rows<IntentRow & { user_email: string }>(
          db,
          sql`SELECT ${sql.raw('i.id, i.user_id, i.reference, i.processor, i.amount::text AS amount, i.status, i.origin, i.email, i.checkout_url, i.access_code, i.amount_paid::text AS amount_paid, i.channel, i.paid_at, i.settled_at, i.failure_reason, i.created_at')}, u.email AS user_email
              FROM topup_intents i JOIN users u ON u.id = i.user_id
              WHERE (${ref}::text IS NULL OR i.reference = ${ref}) AND (${uid}::uuid IS NULL OR i.user_id = ${uid}::uuid)
                AND (${email}::text IS NULL OR u.email = ${email}) AND (${status}::text IS NULL OR i.status = ${status})
              ORDER BY i.created_at DESC, i.id LIMIT ${lim} OFFSET ${input.offset}`,
        );
        items = list.map((r) => ({ kind: 'intent' as const, ...intentView(r), userId: r.user_id, userEmail: r.user_email }));
      } else if (input.kind === 'settlements') {
        const flagged = input.flagged ?? null;
        const list = await rows<{ id: string; processor: string; processor_reference: string; user_id: string; user_email: string; kind: string; amount: string; channel: string | null; source: string; over_cap: boolean; created_at: Date }>(
          db,
          sql`SELECT s.id, s.processor, s.processor_reference, s.user_id, u.email AS user_email, s.kind, s.amount::text AS amount, s.channel, s.source, s.over_cap, s.created_at
              FROM payment_settlements s JOIN users u ON u.id = s.user_id
              WHERE (${ref}::text IS NULL OR s.processor_reference = ${ref}) AND (${uid}::uuid IS NULL OR s.user_id = ${uid}::uuid)
                AND (${email}::text IS NULL OR u.email = ${email}) AND (${flagged}::boolean IS NULL OR s.over_cap = ${flagged})
              ORDER BY s.created_at DESC, s.id LIMIT ${lim} OFFSET ${input.offset}`,
        );
        items = list.map((r) => ({
          kind: 'settlement' as const,
          id: r.id,
          reference: r.processor_reference,
          processor: r.processor,
          userId: r.user_id,
          userEmail: r.user_email,
          settlementKind: r.kind,
          amount: toNaira(r.amount),
          channel: r.channel,
          source: r.source,
          flagged: r.over_cap,
          createdAt: iso(r.created_at)!,
        }));
      } else {
        const list = await rows<{ id: string; processor: string; event: string; reference: string | null; status: string; outcome: string | null; deliveries: number; received_at: Date; processed_at: Date | null }>(
          db,
          sql`SELECT id, processor, event, reference, status, outcome, deliveries, received_at, processed_at FROM processor_events
              WHERE (${ref}::text IS NULL OR reference = ${ref}) AND (${status}::text IS NULL OR status = ${status})
              ORDER BY received_at DESC, id LIMIT ${lim} OFFSET ${input.offset}`,
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

    /** adminAdjustWallet: a signed correction against the adjustments account, audited in the same transaction. */
    async adminAdjustWallet(actor: AuthUser, input: { userId: string; amount: number; reason: string }) {
      const amount = toKobo(input.amount);
      const target = await one<{ id: string }>(db, sql`SELECT id FROM users WHERE id = ${input.userId}`);
      if (!target) throw notFound('User');
      const reference = prefixedId('adj', clock.now().getTime());
      return db.transaction(async (tx) => {
        const posted = await ledger.post(tx, {
          reference,
          type: 'adjustment',
          description: `Operator adjustment: ${input.reason}`,
          entries: [
            { account: { user: input.userId, kind: 'wallet' }, amount },
            { account: { system: 'adjustments' }, amount: -amount },
          ],
          metadata: { actorId: actor.id, reason: input.reason },
        });
        await tx.execute(sql`INSERT INTO audit_log (id, actor_id, action, subject_type, subject_id, details, created_at)
            VALUES (${uuid()}, ${actor.id}, 'wallet.adjust', 'user', ${input.userId},
                    ${JSON.stringify({ amount: input.amount, reason: input.reason, reference })}::jsonb, ${clock.now()})`);
        if (amount > 0n) await events.emit(tx, 'wallet.credited', { userId: input.userId, amount, source: 'adjustment', reference });
        await notifier.emit(tx, {
          userId: input.userId,
          kind: 'wallet_adjusted',
          title: 'Wallet adjusted',
          body: `An operator ${amount > 0n ? 'credited' : 'debited'} ${formatNaira(amount > 0n ? amount : -amount)}: ${input.reason}`,
          data: { reference, amount: input.amount },
        });
        return { reference, amount: input.amount, balance: toNaira(posted.balances[`user:${input.userId}:wallet`]) };
      });
    },

    /** kyc.approved (tier >= 2) -> a job creates the dedicated account (enqueued in the approval's transaction). */
    subscribe() {
      events.on('kyc.approved', async (exec, e) => {
        if (e.tier >= 2) await jobs.enqueue(exec, JOB_CREATE_DVA, { userId: e.userId }, { singletonKey: `dva:${e.userId}` });
      });
    },
  };
}
