import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withIdempotency, type StoredResponse } from '../../src/http/idempotency.js';
import { readOf } from '../../src/platform/reads.js';
import { rows } from '../../src/db/client.js';
import { createHarness, usingPostgres, type Harness } from '../helpers/harness.js';
import { statementsOf } from '../helpers/statements.js';

// Claims and answers of concurrent requests written together (src/http/idempotency-batch.ts): PostgreSQL pools only.
describe.skipIf(!usingPostgres)('Idempotency-Key claims and answers in batches', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  const db = () => h.app.services.db;
  /** withIdempotency as the service calls it: batches of up to 32. */
  const claimed = (
    claim: Parameters<typeof withIdempotency>[2],
    exec: Parameters<typeof withIdempotency>[3],
    reads: Parameters<typeof withIdempotency>[4] = [],
  ) => withIdempotency(db(), h.clock, claim, exec, reads, { batchMax: 32 });
  const claimOf = (key: string, userId = randomUUID()) => ({ userId, key, operation: 'test', requestHash: `h:${key}` });
  /** A request whose work waits for `gate`, so that every request's answer is stored in the same turn. */
  const gated = (gate: Promise<void>, body: unknown) => async (): Promise<StoredResponse> => {
    await gate;
    return { status: 200, body };
  };
  const row = async (userId: string, key: string) =>
    (
      await rows<{ status: string; response_status: number; response_body: unknown }>(
        db(),
        sql`SELECT status, response_status, response_body FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`,
      )
    )[0];

  it('twelve requests: one claim statement and one answer statement, each row its own answer, each replayed', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const claims = Array.from({ length: 12 }, (_, i) => claimOf(`k${i}`));
    const texts = await statementsOf(async () => {
      const all = Promise.all(claims.map((c, i) => claimed(c, gated(gate, { n: i }))));
      setTimeout(open, 50);
      const out = await all;
      out.forEach((r, i) => expect(r).toEqual({ status: 200, body: { n: i }, replayed: false }));
    });
    expect(texts.filter((t) => /^INSERT INTO idempotency_keys/.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /^UPDATE idempotency_keys k SET status = 'done'/.test(t))).toHaveLength(1);
    for (const [i, c] of claims.entries()) {
      expect(await row(c.userId, c.key)).toEqual({ status: 'done', response_status: 200, response_body: { n: i } });
      const again = await claimed(c, async () => ({ status: 500, body: 'ran twice' }));
      expect(again).toEqual({ status: 200, body: { n: i }, replayed: true });
    }
  });

  it('in one batch: a new key wins with its reads, a done key replays, a key in flight is 409, an expired key is taken over', async () => {
    const user = randomUUID();
    const run = (key: string, requestHash = `h:${key}`) =>
      claimed({ ...claimOf(key, user), requestHash }, async (_claim, answers) => ({ status: 201, body: { key, answers } }), [
        readOf<number>('test.forty-two', sql`SELECT 40 + 2`),
        readOf<string>(`test.key:${key}`, sql`SELECT ${key}::text`),
      ]);
    // Earlier: one done, one in flight (its process still running), one done 25 hours ago.
    await run('done');
    await rows(
      db(),
      sql`INSERT INTO idempotency_keys (user_id, key, operation, request_hash, status, created_at, locked_until)
          VALUES (${user}, 'flight', 'test', 'h:flight', 'in_flight', ${h.clock.now()}, ${new Date(h.clock.now().getTime() + 60_000)}),
                 (${user}, 'old', 'test', 'h:old-body', 'done', ${new Date(h.clock.now().getTime() - 25 * 3600_000)}, ${h.clock.now()})`,
    );
    const texts = await statementsOf(async () => {
      const [fresh, done, flight, old, reused] = await Promise.allSettled([
        run('fresh'),
        run('done'),
        run('flight'),
        run('old'),
        run('done', 'h:other'),
      ]);
      expect(fresh).toEqual({
        status: 'fulfilled',
        value: { status: 201, body: { key: 'fresh', answers: [42, 'fresh'] }, replayed: false },
      });
      expect(done).toEqual({ status: 'fulfilled', value: { status: 201, body: { key: 'done', answers: [42, 'done'] }, replayed: true } });
      expect(flight.status === 'rejected' && (flight.reason as { code: string }).code).toBe('IDEMPOTENCY_IN_PROGRESS');
      expect(old).toEqual({ status: 'fulfilled', value: { status: 201, body: { key: 'old', answers: [42, 'old'] }, replayed: false } });
      expect(reused.status === 'rejected' && (reused.reason as { code: string }).code).toBe('IDEMPOTENCY_KEY_REUSED');
    });
    // Two claims of one key ('done' twice) never share a batch: two claim statements.
    expect(texts.filter((t) => /^INSERT INTO idempotency_keys/.test(t))).toHaveLength(2);
    expect(await row(user, 'old')).toMatchObject({ status: 'done', response_body: { key: 'old', answers: [42, 'old'] } });
  });

  it("a read that fails fails only its own request; the others' claims and answers are made", async () => {
    const ok = claimOf('fine');
    const bad = claimOf('broken');
    const [a, b] = await Promise.allSettled([
      claimed(ok, async (_claim, answers) => ({ status: 200, body: answers }), [readOf('test.seven', sql`SELECT 7`)]),
      claimed(bad, async () => ({ status: 200, body: 'ran' }), [readOf('test.division-by-zero', sql`SELECT 1 / 0`)]),
    ]);
    expect(a).toEqual({ status: 'fulfilled', value: { status: 200, body: [7], replayed: false } });
    expect(b.status).toBe('rejected');
    expect(String((b as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect((await row(ok.userId, ok.key))?.status).toBe('done');
  });

  it('the same key twice in one turn executes once', async () => {
    const c = claimOf('twice');
    let runs = 0;
    const once = () =>
      claimed(c, async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 20));
        return { status: 200, body: { runs } };
      });
    const results = await Promise.allSettled([once(), once(), once()]);
    expect(runs).toBe(1);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.body).toEqual({ runs: 1 });
      else expect((r.reason as { code: string }).code).toBe('IDEMPOTENCY_IN_PROGRESS');
    }
  });

  it('a claim statement that fails is logged once and every claim is made alone: only the bad one fails', async () => {
    const warned: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warned.push(args) } as unknown as NonNullable<Parameters<typeof withIdempotency>[5]>['log'];
    const good = [claimOf('alone-1'), claimOf('alone-2')];
    // Not a uuid: the batch's INSERT fails as a whole, then this claim alone.
    const bad = { ...claimOf('alone-bad'), userId: 'not-a-uuid' };
    const results = await Promise.allSettled(
      [...good, bad].map((c, i) =>
        withIdempotency(db(), h.clock, c, async () => ({ status: 200, body: { i } }), [], { batchMax: 32, log }),
      ),
    );
    expect(results.slice(0, 2)).toEqual([
      { status: 'fulfilled', value: { status: 200, body: { i: 0 }, replayed: false } },
      { status: 'fulfilled', value: { status: 200, body: { i: 1 }, replayed: false } },
    ]);
    expect(results[2].status).toBe('rejected');
    expect(warned).toHaveLength(1);
    expect(String((warned[0] as unknown[])[1])).toMatch(/a batch of 3 claims failed/);
    for (const c of good) expect((await row(c.userId, c.key))?.status).toBe('done');
  });
});
