import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { EpinsDeps } from './deps.js';
import { settleBatch } from './settle-batch.js';

/** The job that asks the seller again about a batch still processing (a crash or no answer after its debit). */
export const REQUERY_JOB = 'epins.requery';
export const REQUERY_AFTER_MS = 60_000;

/**
 * Asks the seller about a processing batch by its request id and settles it with the answer (settle-batch.ts: once,
 * whoever asks). Answers the batch's status afterwards; `processing` when the seller still has no answer.
 */
export async function requeryBatch(deps: EpinsDeps, id: string): Promise<string | null> {
  const b = await one<{ status: string }>(deps.db, sql`SELECT status FROM epin_batches WHERE id = ${id}`);
  if (!b || b.status !== 'processing' || !deps.provider) return b?.status ?? null;
  await settleBatch(deps, id, await deps.provider.requery(id));
  return (await one<{ status: string }>(deps.db, sql`SELECT status FROM epin_batches WHERE id = ${id}`))?.status ?? null;
}

export function registerEpinJobs({ jobs, epins }: { jobs: JobQueue; epins: { requery(id: string): Promise<string | null> } }) {
  jobs.register({
    name: REQUERY_JOB,
    payload: z.object({ id: z.string() }),
    maxAttempts: 20,
    backoffMs: 60_000,
    handler: async (p) => {
      if ((await epins.requery(p.id)) === 'processing') throw new Error(`e-PIN batch ${p.id}: the seller has no answer yet`);
    },
  });
}
