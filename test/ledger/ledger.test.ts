import { noticeRowsPart } from '../helpers/notices.js';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostInput, WalletLimit } from '../../src/ledger/ledger.js';
import type { Namer, Part } from '../../src/db/change-statements.js';
import { verifyLedger } from '../../src/ledger/verify.js';
import { createHarness, expectLedgerOk, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { sql, type SQL } from 'drizzle-orm';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const ledger = () => h.app.services.ledger;
const db = () => h.app.services.db;

async function credit(userId: string, kobo: bigint, ref = `cr_${randomUUID()}`) {
  await db().transaction((tx) =>
    ledger().post(tx, {
      reference: ref,
      type: 'topup',
      description: 'test credit',
      entries: [
        { account: { user: userId, kind: 'wallet' }, amount: kobo },
        { account: { system: 'collections' }, amount: -kobo },
      ],
    }),
  );
}

async function debit(userId: string, kobo: bigint) {
  return db().transaction((tx) =>
    ledger().post(tx, {
      reference: `db_${randomUUID()}`,
      type: 'wallet_debit',
      description: 'test debit',
      entries: [
        { account: { user: userId, kind: 'wallet' }, amount: -kobo },
        { account: { system: 'revenue' }, amount: kobo },
      ],
    }),
  );
}

describe('ledger.post', () => {
  it('refuses an unbalanced set of entries', async () => {
    const u = await signIn(h);
    await expect(
      db().transaction((tx) =>
        ledger().post(tx, {
          reference: 'unbalanced',
          type: 'x',
          description: 'x',
          entries: [
            { account: { user: u.id, kind: 'wallet' }, amount: 100n },
            { account: { system: 'collections' }, amount: -99n },
          ],
        }),
      ),
    ).rejects.toThrow(/unbalanced/);
  });

  it('refuses to take a wallet below zero and leaves nothing behind', async () => {
    const u = await signIn(h);
    await credit(u.id, 500n);
    await expect(debit(u.id, 501n)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(500n);
    await expectLedgerOk(h);
  });

  it('a refused posting writes nothing, so a caller that catches it can go on and commit', async () => {
    const u = await signIn(h);
    await credit(u.id, 500n);
    const refused = `refused_${randomUUID()}`;
    await db().transaction(async (tx) => {
      await expect(
        ledger().post(tx, {
          reference: refused,
          type: 'wallet_debit',
          description: 'too much',
          entries: [
            { account: { user: u.id, kind: 'wallet' }, amount: -501n },
            { account: { system: 'revenue' }, amount: 501n },
          ],
        }),
      ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      await ledger().post(tx, {
        reference: `ok_${randomUUID()}`,
        type: 'wallet_debit',
        description: 'fits',
        entries: [
          { account: { user: u.id, kind: 'wallet' }, amount: -200n },
          { account: { system: 'revenue' }, amount: 200n },
        ],
      });
    });
    const left = await db().execute(sql`SELECT 1 FROM ledger_transactions WHERE reference = ${refused}`);
    expect((left as unknown as { rows: unknown[] }).rows).toEqual([]);
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(300n);
    await expectLedgerOk(h);
  });

  it('a posting that touches one user account twice is posted line by line with a running balance', async () => {
    const u = await signIn(h);
    await credit(u.id, 1000n);
    const posted = await db().transaction((tx) =>
      ledger().post(tx, {
        reference: `twice_${randomUUID()}`,
        type: 'x',
        description: 'fee and refund on one wallet',
        entries: [
          { account: { user: u.id, kind: 'wallet' }, amount: -300n },
          { account: { user: u.id, kind: 'wallet' }, amount: 100n },
          { account: { system: 'revenue' }, amount: 200n },
        ],
      }),
    );
    expect(posted.balances[`user:${u.id}:wallet`]).toBe(800n);
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(800n);
    await expectLedgerOk(h);
  });

  it('refuses a duplicate reference; tryPost returns null without aborting the transaction', async () => {
    const u = await signIn(h);
    await credit(u.id, 100n, 'dup-ref');
    await expect(credit(u.id, 100n, 'dup-ref')).rejects.toMatchObject({ code: 'DUPLICATE_REFERENCE' });
    const r = await db().transaction(async (tx) => {
      const first = await ledger().tryPost(tx, {
        reference: 'dup-ref',
        type: 'topup',
        description: 'again',
        entries: [
          { account: { user: u.id, kind: 'wallet' }, amount: 100n },
          { account: { system: 'collections' }, amount: -100n },
        ],
      });
      const after = await tx.execute(sql`SELECT 1 AS one`);
      return { first, after };
    });
    expect(r.first).toBeNull();
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(100n);
  });

  it('an account first created in a rolled-back transaction is created again later', async () => {
    const u = await signIn(h);
    const post = (amount: bigint) =>
      db().transaction((tx) =>
        ledger().post(tx, {
          reference: `fresh_${randomUUID()}`,
          type: 'x',
          description: 'x',
          entries: [
            { account: { user: u.id, kind: 'wallet' }, amount: -amount },
            { account: { system: `provider_float:${u.id}` }, amount },
          ],
        }),
      );
    await expect(post(5n)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await credit(u.id, 10n);
    await post(5n);
    expect(await ledger().balance(db(), { system: `provider_float:${u.id}` })).toBe(5n);
    await expectLedgerOk(h);
  });

  it('system accounts are append-only: their balance is the sum of their entries', async () => {
    const before = await ledger().balance(db(), { system: 'collections' });
    const u = await signIn(h);
    await credit(u.id, 1234n);
    expect(await ledger().balance(db(), { system: 'collections' })).toBe(before - 1234n);
  });

  it('property: random sequences of credits, debits and transfers keep every invariant', async () => {
    const users = await Promise.all([signIn(h), signIn(h), signIn(h)]);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('credit' as const),
        who: fc.integer({ min: 0, max: 2 }),
        amount: fc.bigInt({ min: 1n, max: 100_000n }),
      }),
      fc.record({
        kind: fc.constant('debit' as const),
        who: fc.integer({ min: 0, max: 2 }),
        amount: fc.bigInt({ min: 1n, max: 100_000n }),
      }),
      fc.record({
        kind: fc.constant('transfer' as const),
        who: fc.integer({ min: 0, max: 2 }),
        to: fc.integer({ min: 0, max: 2 }),
        amount: fc.bigInt({ min: 1n, max: 100_000n }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (ops) => {
        const model = new Map<string, bigint>();
        for (const u of users) model.set(u.id, await ledger().balance(db(), { user: u.id, kind: 'wallet' }));
        for (const o of ops) {
          const from = users[o.who].id;
          try {
            if (o.kind === 'credit') await credit(from, o.amount);
            else if (o.kind === 'debit') await debit(from, o.amount);
            else {
              const to = users[o.to].id;
              if (to === from) continue;
              await db().transaction((tx) =>
                ledger().post(tx, {
                  reference: `tr_${randomUUID()}`,
                  type: 'transfer_out',
                  description: 'p2p',
                  entries: [
                    { account: { user: from, kind: 'wallet' }, amount: -o.amount },
                    { account: { user: to, kind: 'wallet' }, amount: o.amount },
                  ],
                }),
              );
              model.set(to, model.get(to)! + o.amount);
            }
            if (o.kind === 'credit') model.set(from, model.get(from)! + o.amount);
            else model.set(from, model.get(from)! - o.amount);
          } catch (err) {
            expect((err as { code?: string }).code).toBe('INSUFFICIENT_FUNDS');
            expect(model.get(from)! < o.amount).toBe(true);
          }
        }
        for (const u of users) expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(model.get(u.id));
        const report = await verifyLedger(db());
        expect(report.breaches).toEqual([]);
      }),
      { numRuns: 15, seed: 7 },
    );
  });

  it('100 parallel debits of one wallet end at the exact expected balance, never below zero', async () => {
    const u = await signIn(h);
    await credit(u.id, 5_000n); // enough for 50 debits of 100
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => debit(u.id, 100n)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBe(50);
    for (const r of refused) expect((r as PromiseRejectedResult).reason.code).toBe('INSUFFICIENT_FUNDS');
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(0n);
    await expectLedgerOk(h);
  });

  it('transfers in both directions between two wallets at once do not deadlock', async () => {
    const [a, b] = await Promise.all([signIn(h), signIn(h)]);
    await credit(a.id, 10_000n);
    await credit(b.id, 10_000n);
    const transfer = (from: string, to: string) =>
      db().transaction((tx) =>
        ledger().post(tx, {
          reference: `tr_${randomUUID()}`,
          type: 'transfer_out',
          description: 'p2p',
          entries: [
            { account: { user: from, kind: 'wallet' }, amount: -10n },
            { account: { user: to, kind: 'wallet' }, amount: 10n },
          ],
        }),
      );
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? transfer(a.id, b.id) : transfer(b.id, a.id))));
    expect(await ledger().balance(db(), { user: a.id, kind: 'wallet' })).toBe(10_000n);
    expect(await ledger().balance(db(), { user: b.id, kind: 'wallet' })).toBe(10_000n);
    await expectLedgerOk(h);
  });

  it('verifyLedger detects a tampered balance', async () => {
    const u = await signIn(h);
    await credit(u.id, 100n);
    await db().execute(sql`UPDATE accounts SET balance = balance + 1 WHERE code = ${`user:${u.id}:wallet`}`);
    const report = await verifyLedger(db());
    expect(report.breaches.some((b) => b.detail.includes(u.id))).toBe(true);
    await db().execute(sql`UPDATE accounts SET balance = balance - 1 WHERE code = ${`user:${u.id}:wallet`}`);
    await expectLedgerOk(h);
  });

  it.runIf(usingPostgres)('runs on PostgreSQL in this pass', () => {
    expect(h.database.kind).toBe('pg');
  });
});

describe('wallet limits and the outflow counter', () => {
  const post = (userId: string, type: string, kobo: bigint, limits?: WalletLimit[]) =>
    db().transaction((tx) =>
      ledger().post(tx, {
        reference: `${type}_${randomUUID()}`,
        type,
        description: type,
        entries: [
          { account: { user: userId, kind: 'wallet' }, amount: kobo },
          { account: { system: 'revenue' }, amount: -kobo },
        ],
        limits,
      }),
    );
  const counter = async (userId: string) =>
    (
      await db().execute(
        sql`SELECT outflow_day::text AS day, outflow_today::text AS n FROM accounts WHERE code = ${`user:${userId}:wallet`}`,
      )
    ).rows[0] as {
      day: string | null;
      n: string;
    };
  const limits = () => h.app.services.walletLimits;
  const refuse = (code: string) => () => Object.assign(new Error(code), { code });

  it('counts outflow types, nets same-day refunds, ignores credits, and starts again each Lagos day', async () => {
    const u = await signIn(h);
    await credit(u.id, 100_000n);
    await post(u.id, 'wallet_debit', -1_000n);
    await post(u.id, 'vtu_purchase', -2_000n);
    await post(u.id, 'vtu_refund', 500n);
    await post(u.id, 'savings_deposit', -4_000n); // moving money to one's own savings is not outflow
    expect(await counter(u.id)).toEqual({ day: '2026-01-15', n: '2500' });
    expect(await limits().outflowToday(db(), u.id)).toBe(2_500n);
    const start = h.clock.now();
    try {
      h.clock.set('2026-01-15T23:30:00Z'); // 00:30 on the 16th in Lagos
      expect(await limits().outflowToday(db(), u.id)).toBe(0n);
      await post(u.id, 'vtu_refund', 700n); // a refund today of yesterday's purchase: reads as zero, not below
      expect(await counter(u.id)).toEqual({ day: '2026-01-16', n: '-700' });
      expect(await limits().outflowToday(db(), u.id)).toBe(0n);
      await post(u.id, 'transfer_out', -1_000n);
      expect(await limits().outflowToday(db(), u.id)).toBe(300n);
      // A writer whose clock is still on the 15th leaves the 16th's counter alone.
      h.clock.set('2026-01-15T22:59:00Z');
      await post(u.id, 'wallet_debit', -100n);
      expect(await counter(u.id)).toEqual({ day: '2026-01-16', n: '300' });
      await expectLedgerOk(h);
    } finally {
      h.clock.set(start);
    }
  });

  it('the posting that touches one wallet twice keeps the counter too', async () => {
    const u = await signIn(h);
    await credit(u.id, 1_000n);
    await db().transaction((tx) =>
      ledger().post(tx, {
        reference: `twice_${randomUUID()}`,
        type: 'vtu_purchase',
        description: 'price and fee',
        entries: [
          { account: { user: u.id, kind: 'wallet' }, amount: -300n },
          { account: { user: u.id, kind: 'wallet' }, amount: -100n },
          { account: { system: 'revenue' }, amount: 400n },
        ],
      }),
    );
    expect((await counter(u.id)).n).toBe('400');
    await expectLedgerOk(h);
  });

  it('a refused limit writes nothing and names itself: daily outflow first, then funds, then the balance cap', async () => {
    const [a, b] = await Promise.all([signIn(h), signIn(h)]);
    await credit(a.id, 1_000n);
    await credit(b.id, 900n);
    const transfer = (kobo: bigint, l: WalletLimit[]) =>
      db().transaction((tx) =>
        ledger().post(tx, {
          reference: `tr_${randomUUID()}`,
          type: 'transfer_out',
          description: 'p2p',
          entries: [
            { account: { user: a.id, kind: 'wallet' }, amount: -kobo },
            { account: { user: b.id, kind: 'wallet' }, amount: kobo },
          ],
          limits: l,
        }),
      );
    const seen: bigint[] = [];
    const daily = (max: bigint): WalletLimit => ({
      user: a.id,
      dailyOutflow: { max, refuse: (used) => (seen.push(used), refuse('DAILY')()) },
    });
    const cap = (max: bigint): WalletLimit => ({ user: b.id, balance: { max, refuse: (bal) => (seen.push(bal), refuse('CAP')()) } });
    await transfer(200n, [daily(500n), cap(5_000n)]);
    await expect(transfer(400n, [daily(500n), cap(1_000n)])).rejects.toMatchObject({ code: 'DAILY' });
    await expect(transfer(50n, [daily(500n), cap(1_000n)])).rejects.toMatchObject({ code: 'CAP' });
    await expect(transfer(5_000n, [daily(10_000n), cap(10_000n)])).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    // Short of funds and past the payee's cap: the payer hears of its own funds.
    await expect(transfer(5_000n, [daily(10_000n), cap(1_000n)])).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(transfer(1_000n, [daily(500n), cap(1_000n)])).rejects.toMatchObject({ code: 'DAILY' }); // and short of funds
    expect(seen).toEqual([200n, 1_100n, 200n]);
    expect(await ledger().balance(db(), { user: a.id, kind: 'wallet' })).toBe(800n);
    expect(await ledger().balance(db(), { user: b.id, kind: 'wallet' })).toBe(1_100n);
    expect((await counter(a.id)).n).toBe('200');
    // A limit on a wallet the posting does not touch is a programming error.
    await expect(transfer(1n, [{ user: randomUUID(), balance: { max: 1n, refuse: refuse('X') } }])).rejects.toThrow(/does not touch/);
    await expectLedgerOk(h);
  });

  it('50 parallel debits under a daily limit: exactly as many as fit pass, the counter says so', async () => {
    const u = await signIn(h);
    await credit(u.id, 100_000n);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        post(u.id, 'wallet_debit', -100n, [{ user: u.id, dailyOutflow: { max: 2_000n, refuse: refuse('DAILY') } }]),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    for (const r of results) if (r.status === 'rejected') expect(r.reason.code).toBe('DAILY');
    expect(await counter(u.id)).toEqual({ day: '2026-01-15', n: '2000' });
    await expectLedgerOk(h);
  });

  it('verifyLedger detects a counter that does not match its day', async () => {
    const u = await signIn(h);
    await credit(u.id, 1_000n);
    await post(u.id, 'wallet_debit', -100n);
    await db().execute(sql`UPDATE accounts SET outflow_today = 50 WHERE code = ${`user:${u.id}:wallet`}`);
    const report = await verifyLedger(db());
    expect(report.breaches).toContainEqual(expect.objectContaining({ invariant: 'outflow counter' }));
    await db().execute(sql`UPDATE accounts SET outflow_today = 100 WHERE code = ${`user:${u.id}:wallet`}`);
    await expectLedgerOk(h);
  });
});

describe('postAlone and parts', () => {
  const notes = async (userId: string) =>
    Number(((await db().execute(sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId}`)).rows[0] as { n: number }).n);
  const part = (userId: string) =>
    noticeRowsPart([
      { userId, title: 't', body: 'b' },
      { userId, title: 't2', body: 'b2' },
    ]);

  it('one autocommit statement: the parts are written with the posting and not when it is refused', async () => {
    const [a, b] = await Promise.all([signIn(h), signIn(h)]); // b has no wallet row yet
    await credit(a.id, 1_000n);
    const transfer = (kobo: bigint) =>
      ledger().postAlone(db(), {
        reference: `tr_${randomUUID()}`,
        type: 'transfer_out',
        description: 'p2p',
        entries: [
          { account: { user: a.id, kind: 'wallet' }, amount: -kobo },
          { account: { user: b.id, kind: 'wallet' }, amount: kobo },
        ],
        parts: [part(a.id), part(b.id)],
      });
    const before = [await notes(a.id), await notes(b.id)];
    const posted = await transfer(600n);
    expect(posted.balances).toEqual({ [`user:${a.id}:wallet`]: 400n, [`user:${b.id}:wallet`]: 600n });
    expect([await notes(a.id), await notes(b.id)]).toEqual([before[0] + 2, before[1] + 2]);
    await expect(transfer(500n)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect([await notes(a.id), await notes(b.id)]).toEqual([before[0] + 2, before[1] + 2]);
    await expectLedgerOk(h);
  });

  it('a posting that touches one wallet twice runs in a transaction of its own, parts included', async () => {
    const u = await signIn(h);
    await credit(u.id, 1_000n);
    const before = await notes(u.id);
    await ledger().postAlone(db(), {
      reference: `twice_${randomUUID()}`,
      type: 'vtu_purchase',
      description: 'price and fee',
      entries: [
        { account: { user: u.id, kind: 'wallet' }, amount: -300n },
        { account: { user: u.id, kind: 'wallet' }, amount: -100n },
        { account: { system: 'revenue' }, amount: 400n },
      ],
      parts: [part(u.id)],
    });
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(600n);
    expect(await notes(u.id)).toBe(before + 2);
    await expectLedgerOk(h);
  });
});

describe('parts see the posting', () => {
  // A part that records what `posted` shows it: the ledger transaction id and each user account's balance after.
  const recorder = async () => {
    const table = `seen_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    await db().execute(sql.raw(`CREATE TABLE ${table} (tx_id bigint, balances jsonb)`));
    return {
      part: {
        ctes: (posted: SQL, name: Namer) =>
          sql`${name('seen')} AS (INSERT INTO ${sql.raw(table)} SELECT posted.id, posted.balances FROM ${posted})`,
      } satisfies Part,
      seen: async () =>
        (await db().execute(sql.raw(`SELECT tx_id::text AS tx_id, balances FROM ${table}`))).rows as {
          tx_id: string;
          balances: Record<string, string | number>;
        }[],
    };
  };
  const asBigints = (b: Record<string, string | number>) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, BigInt(v)]));

  it('one statement or step by step, `posted` has the transaction id and the balances after, as the posting returns them', async () => {
    const u = await signIn(h);
    await credit(u.id, 1_000n);
    const once = await recorder();
    const one = await ledger().postAlone(db(), {
      reference: `seen1_${randomUUID()}`,
      type: 'wallet_debit',
      description: 'one statement',
      entries: [
        { account: { user: u.id, kind: 'wallet' }, amount: -300n },
        { account: { system: 'revenue' }, amount: 300n },
      ],
      parts: [once.part],
    });
    const [a] = await once.seen();
    expect(a.tx_id).toBe(one.transactionId);
    expect(asBigints(a.balances)).toEqual({ [`user:${u.id}:wallet`]: 700n });
    expect(one.balances).toEqual({ [`user:${u.id}:wallet`]: 700n });

    const stepwise = await recorder();
    const two = await ledger().postAlone(db(), {
      reference: `seen2_${randomUUID()}`,
      type: 'vtu_purchase',
      description: 'one wallet twice: step by step',
      entries: [
        { account: { user: u.id, kind: 'wallet' }, amount: -200n },
        { account: { user: u.id, kind: 'wallet' }, amount: -100n },
        { account: { system: 'revenue' }, amount: 300n },
      ],
      parts: [stepwise.part],
    });
    const [b] = await stepwise.seen();
    expect(b.tx_id).toBe(two.transactionId);
    expect(asBigints(b.balances)).toEqual({ [`user:${u.id}:wallet`]: 400n });
    await expectLedgerOk(h);
  });
});

describe('a posting statement that finds a row changed under it', () => {
  // A part that calls ledger_retry() on its first run only (a sequence survives the statement's rollback), as the
  // posting's own guard does when its UPDATE refuses a row its check had passed.
  const flaky = async () => {
    const name = `probe_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    await db().execute(sql.raw(`CREATE SEQUENCE ${name}_seq`));
    await db().execute(sql.raw(`CREATE TABLE ${name} (n bigint)`));
    return {
      part: {
        ctes: (posted: SQL, cte: Namer) =>
          sql`${cte('rr')} AS (INSERT INTO ${sql.raw(name)} (n) SELECT x.n FROM (SELECT nextval(${`${name}_seq`}) AS n) x, ${posted} WHERE x.n > 1 OR ledger_retry() RETURNING 1)`,
      },
      runs: async () =>
        Number(((await db().execute(sql.raw(`SELECT last_value FROM ${name}_seq`))).rows[0] as { last_value: string }).last_value),
    };
  };

  /** A ₦3 debit of a ₦10 wallet carrying the flaky part. */
  const debitWith = (userId: string, part: Part): PostInput => ({
    reference: `retry_${randomUUID()}`,
    type: 'wallet_debit',
    description: 'debit with a flaky part',
    entries: [
      { account: { user: userId, kind: 'wallet' }, amount: -300n },
      { account: { system: 'revenue' }, amount: 300n },
    ],
    parts: [part],
  });

  it('alone, it is undone and run again: the money moves once', async () => {
    const u = await signIn(h);
    await credit(u.id, 1_000n);
    const probe = await flaky();
    const posted = await ledger().postAlone(db(), debitWith(u.id, probe.part));
    expect(posted.balances[`user:${u.id}:wallet`]).toBe(700n);
    expect(await probe.runs()).toBe(2);
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(700n);
    await expectLedgerOk(h);
  });

  it("inside a caller's transaction it answers CONFLICT and nothing moves", async () => {
    const u = await signIn(h);
    await credit(u.id, 1_000n);
    const probe = await flaky();
    const run = db().transaction((tx) => ledger().post(tx, debitWith(u.id, probe.part)));
    await expect(run).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await ledger().balance(db(), { user: u.id, kind: 'wallet' })).toBe(1_000n);
    await expectLedgerOk(h);
  });
});
