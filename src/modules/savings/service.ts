import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, rows, type Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import { HOUR, type Clock } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import type { Work } from '../../platform/change.js';
import type { GrowthSettingsStore } from '../growth/api.js';
import { breakSavingsLock } from './break-savings-lock.js';
import { createSavingsLock } from './create-savings-lock.js';
import { LOCK_COLUMNS, present, type LockRow } from './lock-row.js';
import { matureDue, matureLock } from './mature.js';

export type SavingsService = ReturnType<typeof createSavingsService>;

/** listSavingsLocks: the user's locks, newest first, and what is locked now. */
export async function listSavingsLocks(
  deps: { db: Db },
  userId: string,
  q: { limit: number; offset: number; status?: 'active' | 'matured' | 'broken' },
) {
  const list = await rows<LockRow>(
    deps.db,
    sql`SELECT ${LOCK_COLUMNS} FROM savings_locks WHERE user_id = ${userId} ${q.status ? sql`AND status = ${q.status}` : sql``}
        ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
  );
  const totals = await one<{ s: string }>(
    deps.db,
    sql`SELECT COALESCE(SUM(principal_kobo), 0)::text AS s FROM savings_locks WHERE user_id = ${userId} AND status = 'active'`,
  );
  return { ...page(list.map(present), q.limit, q.offset), totalLocked: toNaira(totals?.s ?? '0') };
}

/** The savings locks' use cases, each in its own file, bound to the module's dependencies. */
export function createSavingsService(deps: { db: Db; clock: Clock; work: Work; settings: GrowthSettingsStore }) {
  return {
    list: listSavingsLocks.bind(null, deps),
    create: createSavingsLock.bind(null, deps),
    breakLock: breakSavingsLock.bind(null, deps),
    mature: (lockId: string) => matureLock(deps, lockId),
    matureDue: (limit?: number) => matureDue(deps, limit),
  };
}

export function registerSavingsJobs(services: { jobs: JobQueue; savings: SavingsService }) {
  services.jobs.register({
    name: 'savings.mature',
    payload: z.object({ lockId: z.string().uuid() }),
    handler: async ({ lockId }) => {
      await services.savings.mature(lockId);
    },
  });
  services.jobs.register({ name: 'savings.sweep', payload: z.object({}), handler: async () => void (await services.savings.matureDue()) });
  services.jobs.schedule({ job: 'savings.sweep', everyMs: HOUR });
}
