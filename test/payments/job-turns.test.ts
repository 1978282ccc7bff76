import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rows } from '../../src/db/client.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { LaneTurn, Turns } from '../../src/jobs/lanes.js';
import { createLogger } from '../../src/lib/logger.js';
import { OUTBOX_EMAIL_JOB, registerOutboxJobs } from '../../src/modules/notifications/outbox.js';
import type { Mailer, SmsSender } from '../../src/providers/messaging.js';
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

/** Waits, at most 30 s, until every job of the queues `which` selects is done. */
async function untilDone(which: SQL) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const [{ left }] = await rows<{ left: number }>(
      h.app.services.db,
      sql`SELECT count(*)::int AS left FROM jobs WHERE ${which} AND status <> 'done'`,
    );
    if (left === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function runAll(backgroundLanes: number, meet: 'urgent' | 'background') {
  const { q, seen } = worker(meet);
  await h.app.services.db.execute(sql`DELETE FROM jobs WHERE queue LIKE 'test.turns.%'`);
  for (const name of [...BACKGROUND, URGENT]) for (let n = 0; n < JOBS_EACH; n++) await q.enqueue(h.app.services.db, name, { n });
  q.start(5, 2, backgroundLanes);
  try {
    await untilDone(sql`queue LIKE 'test.turns.%'`);
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

/**
 * A batch that waits on another machine (an SMTP send) holds no turn (BatchLane.offTurn): with one turn, another
 * background lane's batch runs while the outbox's e-mail batch waits on a mail server elsewhere; the sandbox's capture,
 * which is this database's work, keeps its turn.
 */
describe('a wait on another machine, off the turn', () => {
  const OTHER = 'test.turns.other';

  /**
   * One turn; the outbox's e-mail lane and OTHER's. A mail is sent through a mailer whose send waits until OTHER's
   * batch has run (or `boundMs`); OTHER's job goes in once the send is waiting. Whether OTHER ran during the send.
   */
  async function otherDuringSend(waitsOnUpstream: boolean, boundMs: number) {
    const sending = signal();
    const otherRan = signal();
    const seen = { inSend: false, otherDuringSend: false, sent: 0 };
    const mailer: Mailer = {
      waitsOnUpstream,
      async send() {
        seen.inSend = true;
        sending.give();
        await otherRan.wait(boundMs);
        seen.inSend = false;
        seen.sent++;
      },
    };
    const sms: SmsSender = { send: async () => undefined };
    const q = new JobQueue(h.app.services.db, h.clock, createLogger({ level: 'silent' }));
    registerOutboxJobs({ jobs: q, mailer, sms, clock: h.clock });
    q.register({
      name: OTHER,
      payload: z.object({ n: z.number() }),
      handler: async () => undefined,
      batch: {
        size: 1,
        idleMs: 5,
        handler: async (items) => {
          if (seen.inSend) seen.otherDuringSend = true;
          otherRan.give();
          return items.map(() => null);
        },
      },
    });
    const queues = [OUTBOX_EMAIL_JOB, OTHER];
    await h.app.services.db.execute(sql`DELETE FROM jobs WHERE queue = ANY(${`{${queues.join(',')}}`}::text[])`);
    await q.enqueue(h.app.services.db, OUTBOX_EMAIL_JOB, { to: 'turns@example.com', subject: 'turns', text: 'hello' });
    q.start(5, 2, 1);
    try {
      await sending.wait(MEET_MS);
      await q.enqueue(h.app.services.db, OTHER, { n: 0 });
      q.nudge(OTHER);
      await untilDone(sql`queue = ANY(${`{${queues.join(',')}}`}::text[])`);
    } finally {
      await q.stop();
    }
    expect(seen.sent).toBe(1);
    return seen.otherDuringSend;
  }

  it('a mail server elsewhere is waited on off the turn: another background batch runs meanwhile', async () => {
    expect(await otherDuringSend(true, MEET_MS)).toBe(true);
  });

  it("a mailer that is this machine's work keeps the turn while it sends", async () => {
    expect(await otherDuringSend(false, 1_000)).toBe(false);
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

  it("a lane's batch gives its turn back for a wait and holds one again before it goes on; overlapping waits give it back once", async () => {
    const tick = () => new Promise((r) => setImmediate(r));
    const turns = new Turns(1);
    const lane = new LaneTurn(turns);
    await lane.take();
    // The wait can take the only turn: the batch gave it back.
    let endOther!: () => void;
    let returned = false;
    const back = lane
      .offTurn(async () => {
        endOther = await turns.take();
        return 7;
      })
      .then((v) => ((returned = true), v));
    await tick();
    expect(returned).toBe(false); // the other holder has the turn; the batch waits for it
    endOther();
    expect(await back).toBe(7);
    // The batch holds the turn again: a newcomer waits until the batch ends.
    let third = false;
    const t3 = turns.take().then((end) => ((third = true), end));
    await tick();
    expect(third).toBe(false);
    await lane.release();
    (await t3)();
    expect(third).toBe(true);

    // Two waits at once: one absence, so one other holder gets the turn, not two.
    const two = new Turns(1);
    const batch = new LaneTurn(two);
    await batch.take();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const waits = Promise.all([batch.offTurn(() => gate), batch.offTurn(() => gate)]);
    await tick();
    const taken: string[] = [];
    const a = two.take().then((end) => (taken.push('a'), end));
    const b = two.take().then((end) => (taken.push('b'), end));
    await tick();
    expect(taken).toEqual(['a']);
    open();
    (await a)(); // b asked before the batch came back for its turn: b goes first
    let batchBack = false;
    void waits.then(() => (batchBack = true));
    const endB = await b;
    await tick();
    expect(batchBack).toBe(false);
    endB();
    await waits;
    await batch.release();

    // A wait still out when its batch ends (a handler that did not await it) takes no turn when it comes back.
    const three = new Turns(1);
    const gone = new LaneTurn(three);
    await gone.take();
    let late!: () => void;
    const stray = gone.offTurn(() => new Promise<void>((r) => (late = r)));
    await gone.release();
    late();
    await stray;
    let free = false;
    void three.take().then(() => (free = true));
    await tick();
    expect(free).toBe(true);
    expect(taken).toEqual(['a', 'b']);
  });
});
