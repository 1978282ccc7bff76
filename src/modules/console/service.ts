import type { Db } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../kernel/clock.js';
import type { IdentityService } from '../identity/api.js';
import { HOUR, MINUTE } from '../../kernel/clock.js';
import { createDashboard, snapshotStatement } from './dashboard.js';
import { createConsoleJobs } from './jobs.js';
import { RUN_JOB, type ConsoleJobsDeps } from './jobs-deps.js';
import { createTopupVerify, type TopupVerifier } from './topups.js';
import { profit, type ProfitInput } from './profit.js';
import { createTransactionSearch } from './transactions.js';
import { z } from 'zod';

/** The operator console's service side (issue 30): dashboard panels, and long actions as jobs (exports among them). */
export function createConsoleService(
  deps: Omit<ConsoleJobsDeps, 'replica' | 'payments' | 'liveOperatorRoles'> & {
    /** The dashboard, the search and the exports read from the replica when there is one (src/db/replica.ts). */
    replica: ReadReplica;
    payments: ConsoleJobsDeps['payments'] & TopupVerifier;
    /** An export's download checks its operator's roles as they are now. */
    identity: Pick<IdentityService, 'liveOperatorRoles'>;
  },
) {
  return {
    dashboard: createDashboard({
      db: deps.replica.lagTolerant,
      clock: deps.clock,
      stuckAfterMs: deps.config.vtu.stuckAfterMs,
      withdrawalStuckAfterMs: deps.config.withdrawalStuckAfterMs,
      thresholds: deps.config.alerts,
    }),
    jobs: createConsoleJobs({ ...deps, liveOperatorRoles: deps.identity.liveOperatorRoles }),
    transactions: createTransactionSearch({ db: deps.replica.lagTolerant, clock: deps.clock }),
    verifyTopup: createTopupVerify(deps.payments),
    /** The profit view (issue 45): retail minus wholesale of successful purchases by day, service and level. */
    profit: (input: ProfitInput) => profit({ db: deps.replica.lagTolerant, clock: deps.clock }, input),
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;

/** How often the float balance snapshots move forward, and how old an entry must be to enter one. */
export const SNAPSHOT_EVERY_MS = 5 * MINUTE;
export const SNAPSHOT_SETTLED_MS = 5 * MINUTE;

/**
 * One queue job runs every operator job; a failed one shows as failed and the operator starts it again.
 * The balance snapshots of the float accounts move forward on a schedule; old exports' files are deleted hourly.
 */
export function registerConsoleJobs(services: { jobs: JobQueue; operatorConsole: ConsoleService; db: Db; clock: Clock }) {
  services.jobs.register({
    name: 'console.balance-snapshots',
    payload: z.object({}),
    handler: async () => {
      const now = services.clock.now();
      await services.db.execute(snapshotStatement(new Date(now.getTime() - SNAPSHOT_SETTLED_MS), now));
    },
  });
  services.jobs.schedule({ job: 'console.balance-snapshots', everyMs: SNAPSHOT_EVERY_MS });
  services.jobs.register({
    name: 'console.exports-cleanup',
    payload: z.object({}),
    handler: async () => void (await services.operatorConsole.jobs.cleanupExports()),
  });
  services.jobs.schedule({ job: 'console.exports-cleanup', everyMs: HOUR });
  services.jobs.register({
    name: RUN_JOB,
    payload: z.object({ id: z.string() }),
    // A failure of the work is recorded on the operator job (failed) and not retried; the queue retries only when even
    // that record could not be written (the database away), and the job then runs again from the start.
    maxAttempts: 3,
    backoffMs: 30_000,
    handler: async ({ id }, meta) => services.operatorConsole.jobs.run(id, meta.jobId),
  });
}
