import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWork } from '../../src/platform/change.js';
import { EventBus } from '../../src/platform/change.js';
import { createHarness, expectLedgerOk, fundWallet, signIn, type Harness } from '../helpers/harness.js';
import { statementsOfEither } from '../helpers/statements.js';

/** The unit of work: a change's posting decides; its writes, events and jobs are made exactly when it is made. */
describe('change (the unit of work)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h?.close());

  const payload = (userId: string) => ({ userId, amount: 5n, source: 'transfer' as const, reference: `r_${randomUUID()}` });
  /** A table the probe writes go to, and a bus with its own subscribers over the service's ledger and jobs. */
  const probe = async () => {
    const table = sql.raw(`probe_${randomUUID().replace(/-/g, '').slice(0, 8)}`);
    const { db, ledger, jobs } = h.app.services;
    await db.execute(sql`CREATE TABLE ${table} (user_id uuid, tag text)`);
    const bus = new EventBus();
    return {
      bus,
      work: createWork({ db, clock: h.app.services.clock, ledger, jobs, events: bus }),
      write:
        (userId: string, tag: string, only: SQL = sql`true`) =>
        (each: SQL) =>
          sql`INSERT INTO ${table} SELECT ${userId}::uuid, ${tag}::text FROM ${each} WHERE ${only}`,
      seen: async () =>
        (
          (await db.execute(sql`SELECT user_id::text AS user_id, tag FROM ${table} ORDER BY tag`)).rows as {
            user_id: string;
            tag: string;
          }[]
        ).map((r) => `${r.tag}:${r.user_id}`),
    };
  };

  it("an event's subscribers write in the caller's transaction, each its own statement; one that is not concerned writes nothing", async () => {
    const p = await probe();
    const [u1, u2] = [randomUUID(), randomUUID()];
    p.bus.on('wallet.credited', (e, change) => change.write(p.write(e.userId, 'always')));
    p.bus.on('wallet.credited', (e, change) => {
      if (e.userId === u2) change.write(p.write(e.userId, 'some'));
    });
    const texts = await statementsOfEither(() =>
      h.app.services.db.transaction(async (tx) => {
        await p.work.change(tx).emit('wallet.credited', payload(u1)).commit();
        await p.work.change(tx).emit('wallet.credited', payload(u2)).commit();
      }),
    );
    expect(await p.seen()).toEqual([`always:${u1}`, `always:${u2}`, `some:${u2}`]);
    const writes = texts.filter((t) => t.includes('INSERT INTO probe_'));
    expect(writes).toHaveLength(3);
  });

  it('a rolled-back transaction leaves none of its changes', async () => {
    const p = await probe();
    const u = randomUUID();
    p.bus.on('wallet.credited', (e, change) => change.write(p.write(e.userId, 'always')));
    await expect(
      h.app.services.db.transaction(async (tx) => {
        await p.work.change(tx).emit('wallet.credited', payload(u)).commit();
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await p.seen()).toEqual([]);
  });

  it('writes ride on the posting: made when it posts, none when it is refused, none when a skipped reference was posted', async () => {
    const p = await probe();
    const u = (await signIn(h)).id;
    await fundWallet(h, u, 1_000);
    const post = (kobo: bigint, reference = `ch_${randomUUID()}`) =>
      p.work
        .change()
        .post(
          {
            reference,
            type: 'wallet_debit',
            description: 'probe',
            entries: [
              { account: { user: u, kind: 'wallet' }, amount: -kobo },
              { account: { system: 'revenue' }, amount: kobo },
            ],
          },
          { ifPosted: 'skip' },
        )
        .write(p.write(u, `posted-${kobo}`))
        .commit();
    await expect(post(10_000_000n)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const reference = `ch_${randomUUID()}`;
    const first = await post(100n, reference);
    expect(first.posted?.transactionId).toEqual(expect.any(String));
    expect(await post(200n, reference)).toEqual({ posted: null });
    expect(await p.seen()).toEqual([`posted-100:${u}`]);
    await expectLedgerOk(h);
  });

  it('a job with a condition is enqueued only where its condition holds over its payload', async () => {
    const { db, jobs } = h.app.services;
    const p = await probe();
    const queue = 'growth.eventRetry';
    const [u1, u2] = [randomUUID(), randomUUID()];
    const onlyU2 = (job: SQL) => sql`(${job} -> 'payload' ->> 'userId') = ${u2}::text`;
    for (const u of [u1, u2])
      await p.work
        .change()
        .enqueue(queue, { event: 'wallet.credited', payload: { userId: u, amount: '1' } }, { onlyIf: onlyU2 })
        .commit();
    const found = (
      await db.execute(
        sql`SELECT payload -> 'payload' ->> 'userId' AS u FROM jobs WHERE queue = ${queue} AND payload -> 'payload' ->> 'userId' IN (${u1}, ${u2})`,
      )
    ).rows;
    expect(found).toEqual([{ u: u2 }]);
    expect(jobs).toBeDefined();
  });

  it('notices of a change are written with it (the service work, whose notices the notifications module writes)', async () => {
    const { db, work } = h.app.services;
    const u = (await signIn(h)).id;
    const tag = randomUUID();
    await work.change().notify({ userId: u, kind: 'general', title: 'Probe', body: tag }).commit();
    const rows = (await db.execute(sql`SELECT user_id::text AS user_id FROM notifications WHERE body = ${tag}`)).rows;
    expect(rows).toEqual([{ user_id: u }]);
  });

  it("a change's jobs of one queue are one statement, each with its own key and time; a singleton that exists is skipped", async () => {
    const { db, clock } = h.app.services;
    const p = await probe();
    const queue = 'growth.eventRetry';
    const tag = randomUUID();
    const job = (i: number) => ({ event: 'wallet.credited', payload: { userId: randomUUID(), amount: String(i), reference: tag } });
    await p.work
      .change()
      .enqueue(queue, job(0), { singletonKey: `${tag}:0` })
      .commit();
    const later = new Date(clock.now().getTime() + 60_000);
    const texts = await statementsOfEither(() =>
      p.work
        .change()
        .enqueue(queue, job(0), { singletonKey: `${tag}:0` })
        .enqueue(queue, job(1), { singletonKey: `${tag}:1` })
        .enqueue(queue, job(2), { runAt: later })
        .commit(),
    );
    expect(texts.filter((t) => t.includes('INSERT INTO jobs'))).toHaveLength(1);
    const found = (
      await db.execute(
        sql`SELECT payload -> 'payload' ->> 'amount' AS n, singleton_key, run_at FROM jobs WHERE payload -> 'payload' ->> 'reference' = ${tag} ORDER BY 1`,
      )
    ).rows as { n: string; singleton_key: string | null; run_at: Date | string }[];
    expect(found.map((r) => [r.n, r.singleton_key])).toEqual([
      ['0', `${tag}:0`],
      ['1', `${tag}:1`],
      ['2', null],
    ]);
    expect(new Date(found[2].run_at).getTime()).toBe(later.getTime());
  });
});
