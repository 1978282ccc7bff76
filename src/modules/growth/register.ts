import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import type { DomainEvents, EventName } from '../../platform/events.js';
import type { Change, EventBus, Work } from '../../platform/change.js';
import { growthEventJob, GROWTH_EVENT_JOB, payloadOf } from './event-job.js';
import type { Logger } from '../../lib/logger.js';
import type { WalletLimits } from '../wallet/api.js';
import { createLoanService, type LoanService } from '../loans/api.js';
import { createSavingsService, type SavingsService } from '../savings/api.js';
import { createGrowthService, type GrowthService } from './service.js';
import { createSettingsStore, type GrowthSettingsStore } from './settings.js';
import { sql, type SQL } from 'drizzle-orm';

export { GROWTH_EVENT_BATCH, GROWTH_EVENT_JOB } from './event-job.js';

export interface GrowthArea {
  growthSettings: GrowthSettingsStore;
  growth: GrowthService;
  savings: SavingsService;
  loans: LoanService;
}

/** Creates the growth, savings and loan services (they share the growth settings). */
export function createGrowthArea(deps: { db: Db; clock: Clock; ledger: Ledger; work: Work; walletLimits: WalletLimits }): GrowthArea {
  const growthSettings = createSettingsStore(deps);
  const growth = createGrowthService({ ...deps, settings: growthSettings });
  const savings = createSavingsService({ ...deps, settings: growthSettings });
  const loans = createLoanService({ ...deps, settings: growthSettings });
  return { growthSettings, growth, savings, loans };
}

/**
 * Subscribes growth and loans to the domain events they react to (sign-ups, delivered purchases, credits, closed
 * accounts). A sign-up's referral is one INSERT in the sign-up's own statement. The rest is money work of several
 * statements (a referral bonus, a loan repayment, a forfeiture): the event adds a job for it to the emitter's
 * change, so the job exists exactly when the change does and a fault in it never undoes the purchase,
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
  const { growth, loans } = deps;
  deps.jobs.register(growthEventJob(deps));
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
