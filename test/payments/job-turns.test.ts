import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rows } from '../../src/db/client.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { Turns } from '../../src/jobs/lanes.js';
import { createLogger } from '../../src/lib/logger.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * Background lanes take turns (JOBS_BACKGROUND_LANES): the batch lanes of queues of priority 0 or less work
 * `backgroundLanes` batches at a time between them, so a backlog of notifications, e-mail and growth work holds no
 * more of the machine while customers' requests share it; a lane of an urgent queue (priority > 0, the webhook
 * credits) does not wait for a turn.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const BACKGROUND = ['test.turns.a', 'test.turns.b', 'test.turns.c'];
const URGENT = 'test.turns.urgent';
const JOBS_EACH = 6;

/** A signal that can be awaited (for at most `ms`) before or after it is given. */
function signal() {
  let give!: () => void;
  const given = new Promise<void>((r) => (give = r));
  return { give, wait: (ms: number) => Promise.race([given, new Promise<void>((r) => setTimeout(r, ms))]) };
}

/** How long a batch waits for the batch it must meet: long enough for a slow machine, short enough to fail fast. */
const MEET_MS = 5_000;

/**
 * A worker with three background lanes and an urgent one; `busy` counts the background batches in progress. Batches
 * meet instead of relying on timing: with `meet: 'urgent'` the first background batch waits until an urgent batch has
 * started, and the urgent batch waits until a background batch is running, so the two overlap whenever the urgent
 * lane may run beside a background turn (and only then: a lane waiting for the turn would never start, and both
 * waits would time out). With `meet: 'background'` a batch waits until a second background batch is running.
 */
function worker(meet: 'urgent' | 'background') {
  const seen = { busy: 0, most: 0, urgentBesideBackground: false };
  const backgroundStarted = signal();
  const urgentStarted = signal();
  const secondBackground = signal();
  const q = new JobQueue(h.app.services.db, h.clock, createLogger({ level: 'silent' }));
  const hold = () => new Promise((r) => setTimeout(r, 15));
  for (const name of BACKGROUND)
    q.register({
      name,
      payload: z.object({ n: z.number() }),
      handler: async () => undefined,
      batch: {
        size: 2,
        idleMs: 5,
        handler: async (items) => {
          seen.busy++;
          seen.most = Math.max(seen.most, seen.busy);
          backgroundStarted.give();
          if (seen.busy > 1) secondBackground.give();
          await (meet === 'urgent' ? urgentStarted : secondBackground).wait(MEET_MS);
          await hold();
          seen.busy--;
          return items.map(() => null);
        },
      },
    });
  q.register({
    name: URGENT,
    payload: z.object({ n: z.number() }),
    priority: 10,
    handler: async () => undefined,
    batch: {
      size: 1,
      idleMs: 5,
      handler: async (items) => {
        if (meet === 'urgent') await backgroundStarted.wait(MEET_MS);
        if (seen.busy > 0) seen.urgentBesideBackground = true;
        urgentStarted.give();
        await hold();
        return items.map(() => null);
      },
    },
  });
  return { q, seen };
}

async function runAll(backgroundLanes: number, meet: 'urgent' | 'background') {
  const { q, seen } = worker(meet);
  await h.app.services.db.execute(sql`DELETE FROM jobs WHERE queue LIKE 'test.turns.%'`);
  for (const name of [...BACKGROUND, URGENT]) for (let n = 0; n < JOBS_EACH; n++) await q.enqueue(h.app.services.db, name, { n });
  q.start(5, 2, backgroundLanes);
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const [{ left }] = await rows<{ left: number }>(
        h.app.services.db,
        sql`SELECT count(*)::int AS left FROM jobs WHERE queue LIKE 'test.turns.%' AND status <> 'done'`,
      );
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await q.stop();
  }
  const [{ done }] = await rows<{ done: number }>(
    h.app.services.db,
    sql`SELECT count(*)::int AS done FROM jobs WHERE queue LIKE 'test.turns.%' AND status = 'done'`,
  );
  return { done, ...seen };
}

describe('background lanes take turns', () => {
  it('one turn: one background batch at a time, every job done, the urgent lane working beside them', async () => {
    const r = await runAll(1, 'urgent');
    expect(r.done).toBe((BACKGROUND.length + 1) * JOBS_EACH);
    expect(r.most).toBe(1);
    expect(r.urgentBesideBackground).toBe(true);
  });

  it('more turns: as many background batches at once', async () => {
    const r = await runAll(3, 'background');
    expect(r.done).toBe((BACKGROUND.length + 1) * JOBS_EACH);
    expect(r.most).toBeGreaterThan(1);
    expect(r.most).toBeLessThanOrEqual(3);
  });
});

describe('Turns', () => {
  it('serves waiting holders in the order they asked, and a turn ends once however often it is ended', async () => {
    const turns = new Turns(1);
    const order: string[] = [];
    const first = await turns.take();
    const waiting = ['b', 'c'].map((name) => turns.take().then((end) => (order.push(name), end)));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    first();
    first(); // a second call must not hand out a second turn
    const endB = await waiting[0];
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['b']);
    endB();
    (await waiting[1])();
    expect(order).toEqual(['b', 'c']);
  });
});
