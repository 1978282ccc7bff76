import type { Db, Executor } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { DomainEvents, EventBus, EventName, Ride } from '../../lib/events.js';
import type { Logger } from '../../lib/logger.js';
import type { Notifier } from '../notifications/api.js';
import type { WalletLimits } from '../wallet/api.js';
import { createLoanService, type LoanService } from '../loans/api.js';
import { createSavingsService, type SavingsService } from '../savings/api.js';
import { createGrowthService, type GrowthService } from './service.js';
import { createSettingsStore, type GrowthSettingsStore } from './settings.js';
import { asTx } from './accounts.js';
import { sql } from 'drizzle-orm';
import { z } from 'zod';

/** Job that re-runs a growth subscriber whose first run failed (its savepoint rolled back, so a re-run is clean). */
export const GROWTH_EVENT_RETRY = 'growth.eventRetry';
const BIGINT_FIELDS = ['amount'] as const;
/** How long a purchase's growth job waits for the inline run that normally does its work and marks it done. */
export const RIDE_CONTINUATION_GRACE_MS = MINUTE;

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
 * accounts), with the job that retries a subscriber whose run failed.
 */
export function subscribeGrowth(deps: {
  growth: GrowthService;
  loans: LoanService;
  events: EventBus;
  jobs: JobQueue;
  db: Db;
  log: Logger;
}): void {
  const { growth, loans } = deps;
  // Each subscriber runs in a savepoint: a fault in a bonus or an auto-repayment is logged and undone on its
  // own, and never rolls back the sign-up, delivered purchase or credit that emitted the event.
  // A subscriber's `applies` check (EventBus.on) runs outside the savepoint: when it says no, the savepoint's two
  // round trips inside the emitter's transaction are skipped (every transfer and top-up credit emits).
  const handlers = new Map<EventName, (exec: Executor, e: any) => Promise<void>>();
  const retryPayload = (e: object) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
  const isolated = <E extends EventName>(name: E, fn: (exec: Executor, e: DomainEvents[E]) => Promise<void>) => {
    handlers.set(name, fn);
    return async (exec: Executor, e: DomainEvents[E]) => {
      try {
        await asTx(exec).transaction((sp) => fn(sp, e));
      } catch (err) {
        // A lost bonus or repayment is money owed: retry it through the job queue (backoff, then the dead list
        // operators see), enqueued in the emitter's transaction so it exists only if the change commits.
        deps.log.error(
          { err, event: name, userId: e.userId },
          'growth subscriber failed; the emitting change is kept and the subscriber is retried by a job',
        );
        await deps.jobs.enqueue(exec, GROWTH_EVENT_RETRY, { event: name, payload: retryPayload(e) });
      }
    };
  };
  deps.jobs.register({
    name: GROWTH_EVENT_RETRY,
    payload: z.object({
      event: z.enum(['user.created', 'vtu.succeeded', 'wallet.credited', 'account.closed']),
      payload: z.record(z.string(), z.unknown()),
    }),
    maxAttempts: 8,
    backoffMs: 30_000,
    handler: async ({ event, payload }) => {
      const fn = handlers.get(event);
      if (!fn) throw new Error(`no growth subscriber for ${event}`);
      const e: Record<string, unknown> = { ...payload };
      for (const f of BIGINT_FIELDS) if (typeof e[f] === 'string') e[f] = BigInt(e[f] as string);
      await deps.db.transaction((tx) => fn(tx, e));
    },
  });
  deps.events.on(
    'user.created',
    isolated('user.created', (tx, e) => growth.onUserCreated(tx, e)),
  );
  // A purchase delivered by one autocommit statement (the VTU settle) carries the subscriber's first statement as
  // riders: the purchase is recorded and, when the rest has something to do (a referral to qualify, a locked
  // referral balance), the same statement writes a growth.eventRetry job for it, due a minute later. The rest then
  // runs at once in its own transaction, which marks that job done; if it fails, or the process dies first, the job
  // does it (the rest is safe to run twice). Usually there is no rest: the settle is the whole purchase's bookkeeping.
  const vtuRide: Ride<'vtu.succeeded'> = {
    rider: (e) => ({
      ctes: (from, p) =>
        sql`${growth.vtuSucceededCtes(e, from, p)},
            ${sql.raw(`${p}job`)} AS (${deps.jobs.enqueueSql(GROWTH_EVENT_RETRY, { event: 'vtu.succeeded', payload: retryPayload({ ...e, recorded: true }) }, { delayMs: RIDE_CONTINUATION_GRACE_MS }, sql.raw(`${p}due`))})`,
      output: (p) => sql`(SELECT id FROM ${sql.raw(`${p}job`)})`,
    }),
    after: async (e, jobId) => {
      if (typeof jobId !== 'string') return;
      try {
        await deps.db.transaction(async (tx) => {
          await growth.onVtuSucceeded(tx, { ...e, recorded: true });
          await deps.jobs.markDone(tx, jobId);
        });
      } catch (err) {
        deps.log.error(
          { err, event: 'vtu.succeeded', userId: e.userId, jobId },
          'growth subscriber failed after a delivered purchase; its job retries it',
        );
      }
    },
  };
  deps.events.on(
    'vtu.succeeded',
    isolated('vtu.succeeded', (tx, e) => growth.onVtuSucceeded(tx, e)),
    undefined,
    vtuRide,
  );
  deps.events.on(
    'wallet.credited',
    isolated('wallet.credited', (tx, e) => loans.onWalletCredited(tx, e)),
    (userId) => loans.hasOpenLoanSql(userId),
  );
  deps.events.on(
    'account.closed',
    isolated('account.closed', (tx, e) => growth.onAccountClosed(tx, e)),
  );
}
