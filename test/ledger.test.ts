import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/ledger/verify.js';
import { createHarness, expectLedgerOk, signIn, usingPostgres, type Harness } from './helpers/harness.js';
import { sql } from 'drizzle-orm';

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
      fc.record({ kind: fc.constant('credit' as const), who: fc.integer({ min: 0, max: 2 }), amount: fc.bigInt({ min: 1n, max: 100_000n }) }),
      fc.record({ kind: fc.constant('debit' as const), who: fc.integer({ min: 0, max: 2 }), amount: fc.bigInt({ min: 1n, max: 100_000n }) }),
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
