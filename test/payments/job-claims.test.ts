import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rows } from '../../src/db/client.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { SECOND } from '../../src/kernel/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * The queue behind the webhook credit claims a batch of due jobs in one statement, runs it with bounded
 * concurrency and completes the batch in one statement. Two queues (two workers) polling one database must
 * never run a job twice, and a failing job still retries with backoff and ends dead. Meaningful on PostgreSQL
 * (TEST_DATABASE_URL: two pool connections claim at the same time); on PGlite it runs serialised.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const JOB = 'test.claimed';
const FAILING = 'test.failing';

function worker(runs: Map<number, number>, active: { now: number; max: number }) {
  const q = new JobQueue(h.app.services.db, h.clock, createLogger({ level: 'silent' }));
  q.register({
    name: JOB,
    payload: z.object({ n: z.number().int() }),
    handler: async (p) => {
      active.now++;
      active.max = Math.max(active.max, active.now);
      runs.set(p.n, (runs.get(p.n) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, p.n % 3));
      active.now--;
    },
  });
  q.register({
    name: FAILING,
    payload: z.object({}),
    maxAttempts: 2,
    backoffMs: 10 * SECOND,
    handler: async () => {
      throw new Error('upstream down');
    },
  });
  return q;
}

const statusOf = async () =>
  rows<{ queue: string; status: string; attempts: number; n: number }>(
    h.app.services.db,
    sql`SELECT queue, status, attempts, count(*)::int AS n FROM jobs WHERE queue IN (${JOB}, ${FAILING}) GROUP BY queue, status, attempts ORDER BY queue, status`,
  );

describe('job queue batch claims', () => {
  it('two workers polling one database run every job exactly once, at most `concurrency` at a time each', async () => {
    const runs = new Map<number, number>();
    const activeA = { now: 0, max: 0 };
    const activeB = { now: 0, max: 0 };
    const a = worker(runs, activeA);
    const b = worker(runs, activeB);
    const total = 300;
    for (let i = 0; i < total; i += 50) {
      await h.app.services.db.transaction(async (tx) => {
        for (let n = i; n < i + 50; n++) await a.enqueue(tx, JOB, { n });
      });
    }
    await a.enqueue(h.app.services.db, FAILING, {});

    a.start(5, 3);
    b.start(5, 3);
    try {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const done = (await statusOf()).find((r) => r.queue === JOB && r.status === 'done')?.n ?? 0;
        if (done === total) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }

    expect(runs.size).toBe(total);
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    expect(Math.max(activeA.max, activeB.max)).toBeLessThanOrEqual(3);
    // The failing job ran once (its backoff is on the injected clock, which did not move).
    expect(await statusOf()).toEqual([
      { queue: JOB, status: 'done', attempts: 1, n: total },
      { queue: FAILING, status: 'queued', attempts: 1, n: 1 },
    ]);

    // After the backoff its last attempt fails too: dead, visible to operators.
    h.clock.advance(10 * SECOND);
    expect(await a.drain()).toBe(1);
    expect((await statusOf())[1]).toEqual({ queue: FAILING, status: 'dead', attempts: 2, n: 1 });
    expect((await a.deadJobs()).map((j) => j.queue)).toContain(FAILING);
  });
});
