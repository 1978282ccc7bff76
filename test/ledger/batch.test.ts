import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { Namer, Part } from '../../src/db/change-statements.js';
import { createLedger, type PostInput, type Posted } from '../../src/ledger/ledger.js';
import { GROWTH_EVENT_JOB } from '../../src/modules/growth/register.js';
import { DELIVER_JOB } from '../../src/modules/notifications/notifier.js';
import { recordPurchase } from '../../src/modules/vtu/repository.js';
import { claimOf } from '../../src/http/idempotency.js';
import { inRequestScope } from '../../src/db/request-scope.js';
import { createHarness, expectLedgerOk, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { statementsOf } from '../helpers/statements.js';

/**
 * Postings in batches (src/ledger/batch.ts): concurrent postings alone are gathered (here for up to 25 ms, so the
 * calls of one Promise.all meet) and made by one statement and one commit, each with its own outcome. On PGlite
 * (one connection) each is posted on its own: the same outcomes, no batch statement.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { LEDGER_BATCH_WAIT_MS: '25', LEDGER_BATCH_MAX: '32' } });
});
afterAll(async () => h.close());

const ledger = () => h.app.services.ledger;
const db = () => h.app.services.db;
const wallet = (user: string) => ({ user, kind: 'wallet' as const });
const balance = (user: string) => ledger().balance(db(), wallet(user));

async function funded(kobo: bigint): Promise<string> {
  const u = await signIn(h);
  await db().transaction((tx) =>
    ledger().post(tx, {
      reference: `fund_${randomUUID()}`,
      type: 'topup',
      description: 'test credit',
      entries: [
        { account: wallet(u.id), amount: kobo },
        { account: { system: 'collections' }, amount: -kobo },
      ],
    }),
  );
  return u.id;
}

const transfer = (from: string, to: string, kobo: bigint, parts: Part[] = []): PostInput => ({
  reference: `bt_${randomUUID()}`,
  type: 'transfer_out',
  description: 'batched transfer',
  entries: [
    { account: wallet(from), amount: -kobo },
    { account: wallet(to), amount: kobo },
  ],
  parts,
});

/** The batch statements (one per batch of two or more) among `texts`. */
const batches = (texts: string[]) => texts.filter((t) => t.includes('jsonb_to_recordset') && t.includes('INSERT INTO ledger_transactions'));

/** A part answering the ledger transaction id its posting made (from `posted`, which a batch keys by change). */
const idPart: Part<string> = {
  ctes: (posted: SQL, name: Namer) => sql`${name('seen')} AS (SELECT posted.id::text AS id FROM ${posted})`,
  output: (name: Namer) => sql`(SELECT id FROM ${name('seen')})`,
};

const settle = <T>(ps: Promise<T>[]) => Promise.allSettled(ps);
const postedOf = (r: PromiseSettledResult<Posted>) => (r as PromiseFulfilledResult<Posted>).value;

/** Division by zero when its posting is made: a failure of the batch's transaction after the money statement. */
const boom: Part = {
  ctes: (posted: SQL, name: Namer) => sql`${name('boom')} AS (SELECT 1 / (count(*) - count(*)) AS z FROM ${posted} HAVING count(*) > 0)`,
  output: (name: Namer) => sql`(SELECT z FROM ${name('boom')})`,
};

describe('postings in batches', () => {
  it('one posting short of money fails alone; the others of its batch are made, each with its own parts', async () => {
    const [a, b, c, x, y, z] = await Promise.all([funded(1_000n), funded(100n), funded(1_000n), funded(1n), funded(1n), funded(1n)]);
    let results: PromiseSettledResult<Posted>[] = [];
    const texts = await statementsOf(async () => {
      results = await settle([
        ledger().postAlone(db(), transfer(a, x, 600n, [idPart])),
        ledger().postAlone(db(), transfer(b, y, 500n, [idPart])),
        ledger().postAlone(db(), transfer(c, z, 1_000n, [idPart])),
      ]);
    });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const [one, three] = [postedOf(results[0]), postedOf(results[2])];
    expect(one.balances).toEqual({ [`user:${a}:wallet`]: 400n, [`user:${x}:wallet`]: 601n });
    expect(three.balances).toEqual({ [`user:${c}:wallet`]: 0n, [`user:${z}:wallet`]: 1_001n });
    // Each posting's part saw its own posting, not another of the batch.
    expect(one.answers).toEqual([one.transactionId]);
    expect(three.answers).toEqual([three.transactionId]);
    expect(one.transactionId).not.toBe(three.transactionId);
    expect(await Promise.all([a, b, c, x, y, z].map(balance))).toEqual([400n, 100n, 0n, 601n, 1n, 1_001n]);
    if (usingPostgres) expect(batches(texts)).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it('two postings on one wallet go in different batches and are decided one after the other', async () => {
    const [w, p, q, r, s] = await Promise.all([funded(1_000n), funded(1n), funded(1n), funded(500n), funded(1n)]);
    let results: PromiseSettledResult<Posted>[] = [];
    const texts = await statementsOf(async () => {
      results = await settle([
        ledger().postAlone(db(), transfer(w, p, 600n)),
        ledger().postAlone(db(), transfer(r, s, 500n)),
        // The same wallet again: 600 + 600 > 1,000, so exactly one of the two debits of w is made.
        ledger().postAlone(db(), transfer(w, q, 600n)),
        ledger().postAlone(db(), transfer(q, w, 1n)),
      ]);
    });
    const okW = [results[0], results[2]].filter((x) => x.status === 'fulfilled');
    expect(okW).toHaveLength(1);
    expect([results[0], results[2]].find((x) => x.status === 'rejected')).toMatchObject({ reason: { code: 'INSUFFICIENT_FUNDS' } });
    expect(results[1].status).toBe('fulfilled');
    expect(results[3].status).toBe('fulfilled');
    const wAfter = await balance(w);
    expect(wAfter).toBe(401n);
    expect((await balance(p)) + (await balance(q))).toBe(1n + 1n + 600n - 1n);
    expect(await balance(s)).toBe(501n);
    // w -> p and r -> s share nothing: a batch of two; w -> q and q -> w each wait for a batch without w.
    if (usingPostgres) expect(batches(texts).length).toBeGreaterThanOrEqual(1);
    await expectLedgerOk(h);
  });

  it('a part that fails undoes its batch; every posting is then made alone and only that one fails', async () => {
    const [a, b, c, x, y, z] = await Promise.all([funded(1_000n), funded(1_000n), funded(1_000n), funded(1n), funded(1n), funded(1n)]);
    const inputs = [transfer(a, x, 100n, [idPart]), transfer(b, y, 200n, [boom]), transfer(c, z, 300n, [idPart])];
    let results: PromiseSettledResult<Posted>[] = [];
    const texts = await statementsOf(async () => {
      results = await settle(inputs.map((i) => ledger().postAlone(db(), i)));
    });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const why = (results[1] as PromiseRejectedResult).reason as Error; // drizzle wraps it on PGlite
    expect(`${String(why)} ${String(why.cause)}`).toMatch(/division by zero/);
    expect(postedOf(results[0]).answers).toEqual([postedOf(results[0]).transactionId]);
    expect(await Promise.all([a, b, c, x, y, z].map(balance))).toEqual([900n, 1_000n, 700n, 101n, 1n, 301n]);
    const made = await db().execute(
      sql`SELECT reference FROM ledger_transactions WHERE reference IN (${sql.join(
        inputs.map((i) => sql`${i.reference}`),
        sql`, `,
      )})`,
    );
    expect((made.rows as { reference: string }[]).map((r) => r.reference).sort()).toEqual(
      [inputs[0].reference, inputs[2].reference].sort(),
    );
    if (usingPostgres) expect(batches(texts)).toHaveLength(1);
    await expectLedgerOk(h);
  });

  it("each posting marks its own request's Idempotency-Key claim, and a refused one marks nothing", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, (_, i) => funded(i === 3 ? 10n : 1_000n)));
    const sinks = await Promise.all(Array.from({ length: 8 }, () => funded(1n)));
    // Each user's request holds a claim of its own (in flight, as withIdempotency leaves it while the request runs).
    const key = `batch-${randomUUID()}`;
    const now = new Date();
    for (const u of users)
      await db().execute(sql`INSERT INTO idempotency_keys (user_id, key, operation, request_hash, status, created_at, locked_until)
                             VALUES (${u}, ${key}, 'test', 'h', 'in_flight', ${now}, ${new Date(now.getTime() + 60_000)})`);
    let results: PromiseSettledResult<Posted>[] = [];
    const texts = await statementsOf(async () => {
      results = await settle(
        // Each posting is asked for in its own request's scope; the batch runs outside all of them.
        users.map((u, i) => inRequestScope(claimOf({ userId: u, key }), () => ledger().postAlone(db(), transfer(u, sinks[i], 500n)))),
      );
    });
    expect(results.map((r) => r.status)).toEqual(users.map((_, i) => (i === 3 ? 'rejected' : 'fulfilled')));
    const statuses = await Promise.all(
      users.map(
        async (u) =>
          (
            (await db().execute(sql`SELECT status FROM idempotency_keys WHERE user_id = ${u} AND key = ${key}`)).rows[0] as {
              status: string;
            }
          ).status,
      ),
    );
    expect(statuses).toEqual(users.map((_, i) => (i === 3 ? 'in_flight' : 'committed')));
    // One batch statement made the seven postings and one more their marks (on PGlite each posted alone, marks the same).
    if (usingPostgres) {
      expect(batches(texts)).toHaveLength(1);
      expect(texts.filter((t) => t.includes("SET status = 'committed'"))).toHaveLength(1);
    }
    await expectLedgerOk(h);
  });

  it('a reused reference is refused as a duplicate in a batch, the rest is made', async () => {
    const [a, b, x, y] = await Promise.all([funded(1_000n), funded(1_000n), funded(1n), funded(1n)]);
    const first = transfer(a, x, 100n);
    await ledger().postAlone(db(), first);
    const results = await settle([ledger().postAlone(db(), { ...first }), ledger().postAlone(db(), transfer(b, y, 100n))]);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { code: 'DUPLICATE_REFERENCE' } });
    expect(results[1].status).toBe('fulfilled');
    expect(await Promise.all([a, b, x, y].map(balance))).toEqual([900n, 900n, 101n, 101n]);
    await expectLedgerOk(h);
  });

  it('hammered: random transfers among 12 wallets, many short of money, conserve every kobo and never overdraw', async () => {
    const wallets = await Promise.all(Array.from({ length: 12 }, () => funded(5_000n)));
    let made = 0;
    let refused = 0;
    for (let wave = 0; wave < 8; wave++) {
      const results = await settle(
        Array.from({ length: 40 }, () => {
          const from = wallets[Math.floor(Math.random() * wallets.length)];
          let to = wallets[Math.floor(Math.random() * wallets.length)];
          if (to === from) to = wallets[(wallets.indexOf(from) + 1) % wallets.length];
          return ledger().postAlone(db(), transfer(from, to, BigInt(1 + Math.floor(Math.random() * 3_000)), [idPart]));
        }),
      );
      for (const r of results) {
        if (r.status === 'fulfilled') {
          made++;
          expect(r.value.answers).toEqual([r.value.transactionId]);
        } else {
          refused++;
          expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
        }
      }
    }
    expect(made).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    const balances = await Promise.all(wallets.map(balance));
    expect(balances.every((b) => b >= 0n)).toBe(true);
    expect(balances.reduce((s, b) => s + b, 0n)).toBe(12n * 5_000n);
    await expectLedgerOk(h);
  });

  it("a batch writes each kind of part in one statement: each made posting's notices and events exactly once, a refused one's none", async () => {
    const payers = await Promise.all([funded(1_000n), funded(1_000n), funded(10n), funded(1_000n)]);
    const payees = await Promise.all(payers.map(() => funded(1n)));
    // Open loans for the payees: the credit's event part (loans' repayment job) writes only for them.
    for (const u of payees)
      await db().execute(sql`INSERT INTO loans (id, user_id, principal_kobo, fee_kobo, created_at, due_at)
                             VALUES (${randomUUID()}::uuid, ${u}::uuid, 100, 10, now(), now() + interval '30 days')`);
    const { work } = h.app.services;
    await db().execute(sql`CREATE TABLE IF NOT EXISTS batch_probe (reference text, tx_id bigint)`);
    const ownRow = (reference: string) => (each: SQL) => sql`INSERT INTO batch_probe SELECT ${reference}, each.id FROM ${each}`;
    const inputs = payers.map((from, i) => transfer(from, payees[i], 500n));
    const changes = inputs.map((t, i) =>
      work
        .change()
        .post(t)
        .notify(
          { userId: payers[i], kind: 'transfer_sent', title: 'Sent', body: `sent ${i}`, data: { reference: t.reference } },
          { userId: payees[i], kind: 'transfer_received', title: 'Received', body: `received ${i}`, data: { reference: t.reference } },
        )
        .emit('wallet.credited', { userId: payees[i], amount: 500n, source: 'transfer', reference: t.reference })
        .write(ownRow(t.reference)),
    );
    let results: PromiseSettledResult<{ posted: Posted | null }>[] = [];
    const texts = await statementsOf(async () => {
      results = await settle(changes.map((c) => c.commit()));
    });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    // A write of its own per change (a closure, never merged) sees its own posting's row.
    for (const i of [0, 1, 3]) {
      const own = await db().execute(sql`SELECT tx_id::text AS tx_id FROM batch_probe WHERE reference = ${inputs[i].reference}`);
      expect(own.rows).toEqual([{ tx_id: (results[i] as PromiseFulfilledResult<{ posted: Posted }>).value.posted.transactionId }]);
    }
    expect((await db().execute(sql`SELECT 1 FROM batch_probe WHERE reference = ${inputs[2].reference}`)).rows).toEqual([]);
    for (const [i, t] of inputs.entries()) {
      const made = i !== 2;
      const notes = (
        await db().execute(
          sql`SELECT id::text AS id, user_id::text AS user_id, kind, body FROM notifications WHERE data ->> 'reference' = ${t.reference} ORDER BY kind`,
        )
      ).rows as { id: string; user_id: string; kind: string; body: string }[];
      expect(notes).toEqual(
        made
          ? [
              { id: expect.any(String), user_id: payees[i], kind: 'transfer_received', body: `received ${i}` },
              { id: expect.any(String), user_id: payers[i], kind: 'transfer_sent', body: `sent ${i}` },
            ]
          : [],
      );
      const deliver = (
        await db().execute(
          sql`SELECT payload FROM jobs WHERE queue = ${DELIVER_JOB} AND payload -> 'notificationIds' ?| ${`{${notes.map((n) => n.id).join(',') || 'none'}}`}::text[]`,
        )
      ).rows as { payload: { notificationIds: string[] } }[];
      expect(deliver.map((d) => [...d.payload.notificationIds].sort())).toEqual(made ? [notes.map((n) => n.id).sort()] : []);
      const repay = (
        await db().execute(
          sql`SELECT payload FROM jobs WHERE queue = ${GROWTH_EVENT_JOB} AND payload -> 'payload' ->> 'reference' = ${t.reference}`,
        )
      ).rows as { payload: unknown }[];
      expect(repay.map((r) => r.payload)).toEqual(
        made
          ? [{ event: 'wallet.credited', payload: { userId: payees[i], amount: '500', source: 'transfer', reference: t.reference } }]
          : [],
      );
    }
    if (usingPostgres) {
      const batch = texts.findIndex((t) => batches([t]).length > 0);
      expect(batch).toBeGreaterThanOrEqual(0);
      // The batch's parts: one notifications statement, one jobs statement (the loan repayment and the webhooks'
      // wallet.credited, each under its condition), the answering part per posting.
      const after = texts.slice(batch + 1, texts.indexOf('COMMIT', batch));
      expect(after.filter((t) => t.includes('INSERT INTO notifications'))).toHaveLength(1);
      const jobs = after.filter((t) => t.includes('INSERT INTO jobs') && !t.includes('INSERT INTO notifications'));
      expect(jobs).toHaveLength(1);
      // The webhooks' wallet.credited job (issue 45) is written for nobody here.
      expect(jobs[0]).toMatch(/FROM loans.*FROM webhook_endpoints|FROM webhook_endpoints.*FROM loans/s);
      expect(after).toHaveLength(2 + inputs.length);
    }
    await expectLedgerOk(h);
  });

  it("purchases' debits in a batch write their purchase rows in one statement, a refused one none", async () => {
    const buyers = await Promise.all([funded(5_000n), funded(100n), funded(5_000n)]);
    const now = new Date();
    const rows = buyers.map((u, i) => ({
      id: randomUUID(),
      reference: `bp_${randomUUID()}`,
      requestId: `req_${i}`,
      userId: u,
      service: 'airtime',
      amount: 1_000n + BigInt(i),
      wholesale: 970n,
      markup: 30n + BigInt(i),
      recipient: '08031234567',
      network: 'mtn',
      provider: 'primary',
      ported: i === 2,
      now,
      nextCheckAt: new Date(now.getTime() + 60_000),
    }));
    const results = await settle(
      rows.map((r) =>
        recordPurchase(
          h.app.services.work.change().post({
            reference: r.reference,
            type: 'vtu_purchase',
            description: 'batched purchase',
            entries: [
              { account: wallet(r.userId), amount: -r.amount },
              { account: { system: 'revenue' }, amount: r.amount },
            ],
          }),
          r,
        ).commit(),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const found = (
      await db().execute(
        sql`SELECT id::text AS id, user_id::text AS user_id, amount::text AS amount, markup::text AS markup, ported, status, providers_tried, next_check_at
            FROM vtu_transactions WHERE id IN (${sql.join(
              rows.map((r) => sql`${r.id}::uuid`),
              sql`, `,
            )}) ORDER BY amount`,
      )
    ).rows as Record<string, unknown>[];
    expect(found.map((f) => ({ ...f, next_check_at: new Date(f.next_check_at as string).getTime() }))).toEqual(
      [rows[0], rows[2]].map((r) => ({
        id: r.id,
        user_id: r.userId,
        amount: r.amount.toString(),
        markup: r.markup.toString(),
        ported: r.ported,
        status: 'processing',
        providers_tried: ['primary'],
        next_check_at: r.nextCheckAt.getTime(),
      })),
    );
    await expectLedgerOk(h);
  });

  it('a failed batch is logged once (its size and the error, no amounts) and each posting is then made alone', async () => {
    const warned: { fields: Record<string, unknown>; msg: string }[] = [];
    const log = { warn: (fields: Record<string, unknown>, msg: string) => void warned.push({ fields, msg }) } as never;
    const own = createLedger({ clock: h.clock, batch: { max: 32, waitMs: 25 }, log });
    const [a, b, c, x, y, z] = await Promise.all([funded(1_000n), funded(1_000n), funded(1_000n), funded(1n), funded(1n), funded(1n)]);
    const inputs = [transfer(a, x, 100n, [idPart]), transfer(b, y, 200n, [boom]), transfer(c, z, 300n, [idPart])];
    const results = await settle(inputs.map((i) => own.postAlone(db(), i)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(postedOf(results[2]).answers).toEqual([postedOf(results[2]).transactionId]);
    expect(await Promise.all([a, b, c, x, y, z].map(balance))).toEqual([900n, 1_000n, 700n, 101n, 1n, 301n]);
    // PGlite makes no batches: nothing fails, nothing is logged.
    expect(warned).toEqual(
      usingPostgres ? [{ fields: { batch: 3, code: '22012', error: 'division by zero' }, msg: expect.stringMatching(/batch/) }] : [],
    );
    await expectLedgerOk(h);
  });
});
