import type { Db, Executor } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import type { DomainEvents, EventName } from '../../platform/events.js';
import type { EventBus } from '../../platform/change.js';
import type { Change, Work } from '../../platform/change.js';
import { asTx } from './accounts.js';
import type { Logger } from '../../lib/logger.js';
import type { Notifier } from '../notifications/api.js';
import type { WalletLimits } from '../wallet/api.js';
import { createLoanService, type LoanService } from '../loans/api.js';
import { createSavingsService, type SavingsService } from '../savings/api.js';
import { createGrowthService, type GrowthService, type PurchaseEvent } from './service.js';
import { createSettingsStore, type GrowthSettingsStore } from './settings.js';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';

/**
 * The job that does growth's and loans' share of an event (a delivered purchase, a credit, a closed account). The
 * queue keeps the name it had when it only retried failed subscribers, so jobs queued before still run.
 */
export const GROWTH_EVENT_JOB = 'growth.eventRetry';
/** Events one claim of the growth lane works through. */
export const GROWTH_EVENT_BATCH = 50;
const BIGINT_FIELDS = ['amount'] as const;

export interface GrowthArea {
  growthSettings: GrowthSettingsStore;
  growth: GrowthService;
  savings: SavingsService;
  loans: LoanService;
}

/** Creates the growth, savings and loan services (they share the growth settings). */
export function createGrowthArea(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  events: EventBus;
  notifier: Notifier;
  jobs: JobQueue;
  work: Work;
  log: Logger;
  walletLimits: WalletLimits;
}): GrowthArea {
  const growthSettings = createSettingsStore(deps);
  const growth = createGrowthService({ ...deps, settings: growthSettings });
  const savings = createSavingsService({ ...deps, settings: growthSettings });
  const loans = createLoanService({ ...deps, settings: growthSettings });
  return { growthSettings, growth, savings, loans };
}

/**
 * Subscribes growth and loans to the domain events they react to (sign-ups, delivered purchases, credits, closed
 * accounts). A sign-up's referral is one INSERT in the sign-up's own statement. The rest is money work of several
 * statements (a referral bonus, a loan repayment, a forfeiture): the event's part writes a job for it, in the
 * emitter's statement, so the job exists exactly when the change does and a fault in it never undoes the purchase,
 * credit or closure that emitted the event. The jobs are worked in batches (GROWTH_EVENT_BATCH at a claim), each
 * event in its own transaction; a failed one is retried with backoff, then left dead for operators.
 */
export function subscribeGrowth(deps: {
  growth: GrowthService;
  loans: LoanService;
  events: EventBus;
  jobs: JobQueue;
  work: Work;
  db: Db;
  log: Logger;
}): void {
  const { growth, loans, jobs } = deps;
  type Work = { [E in EventName]?: (exec: Executor, e: any) => Promise<void> };
  const work: Work = {
    // Only a retry queued before sign-ups recorded the referral in their own statement has this event.
    'user.created': async (tx, e) => {
      const change = deps.work.change(asTx(tx));
      growth.recordReferral(change, e);
      await change.commit();
    },
    'vtu.succeeded': (tx, e) => growth.onVtuSucceeded(tx, e),
    'wallet.credited': (tx, e) => loans.onWalletCredited(tx, e),
    'account.closed': (tx, e) => growth.onAccountClosed(tx, e),
  };
  const payloadOf = (e: object) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
  const eventOf = (payload: Record<string, unknown>) => {
    const e: Record<string, unknown> = { ...payload };
    for (const f of BIGINT_FIELDS) if (typeof e[f] === 'string') e[f] = BigInt(e[f] as string);
    return e;
  };
  const run = async ({ event, payload }: { event: string; payload: Record<string, unknown> }) => {
    const fn = work[event as EventName];
    if (!fn) throw new Error(`no growth work for ${event}`);
    await deps.db.transaction((tx) => fn(tx, eventOf(payload)));
  };
  const failed = (event: string, err: unknown) => {
    deps.log.error({ err, event }, 'growth work failed; its job is retried');
    return err;
  };
  /**
   * A claim of the growth lane: the delivered purchases recorded together in one statement (recordPurchases), the
   * rest of the bookkeeping only for the buyers who have some, each in its own transaction; credits and closures
   * one by one. Each job keeps its own outcome.
   */
  const runBatch = async (items: { payload: { event: string; payload: Record<string, unknown> } }[]): Promise<unknown[]> => {
    const answers: unknown[] = items.map(() => null);
    const purchases = items.flatMap((it, i) =>
      it.payload.event === 'vtu.succeeded' ? [{ i, e: eventOf(it.payload.payload) as unknown as PurchaseEvent }] : [],
    );
    if (purchases.length) {
      try {
        const due = new Set((await growth.recordPurchases(purchases.map((p) => p.e))).map((e) => e.transactionId));
        for (const p of purchases) {
          if (!due.has(p.e.transactionId)) continue;
          try {
            await deps.db.transaction((tx) => growth.onVtuSucceeded(tx, p.e, { recorded: true }));
          } catch (err) {
            answers[p.i] = failed('vtu.succeeded', err);
          }
        }
      } catch (err) {
        for (const p of purchases) answers[p.i] = failed('vtu.succeeded', err);
      }
    }
    for (const [i, it] of items.entries()) {
      if (it.payload.event === 'vtu.succeeded') continue;
      try {
        await run(it.payload);
      } catch (err) {
        answers[i] = failed(it.payload.event, err);
      }
    }
    return answers;
  };
  const def = {
    payload: z.object({
      event: z.enum(['user.created', 'vtu.succeeded', 'wallet.credited', 'account.closed']),
      payload: z.record(z.string(), z.unknown()),
    }),
    maxAttempts: 8,
    backoffMs: 30_000,
    handler: run,
    batch: { size: GROWTH_EVENT_BATCH, handler: runBatch },
  };
  jobs.register({ name: GROWTH_EVENT_JOB, ...def });
  /** The job of one event, in the emitter's change; `onlyIf` narrows it to the users it concerns. */
  const enqueue = <E extends EventName>(change: Change, event: E, e: DomainEvents[E], onlyIf?: (each: SQL) => SQL) =>
    change.enqueue(GROWTH_EVENT_JOB, { event, payload: payloadOf(e) }, { onlyIf });

  deps.events.on('user.created', (e, change) => growth.recordReferral(change, e));
  // Every delivered purchase counts towards milestones and may qualify a referral: growth records it in its job.
  deps.events.on('vtu.succeeded', (e, change) => enqueue(change, 'vtu.succeeded', e));
  // A credit concerns loans only while the user has one open: otherwise nothing is written.
  deps.events.on('wallet.credited', (e, change) => enqueue(change, 'wallet.credited', e, loans.hasOpenLoan));
  deps.events.on('account.closed', (e, change) => enqueue(change, 'account.closed', e, hasLockedBonus));
}

/** Whether the job's user (its event's `userId`) holds a locked bonus that account.closed forfeits. */
const hasLockedBonus = (job: SQL) =>
  sql`EXISTS (SELECT 1 FROM accounts WHERE user_id = (${job} -> 'payload' ->> 'userId')::uuid
        AND kind IN ('bonus_locked', 'referral_locked') AND balance > 0)`;
