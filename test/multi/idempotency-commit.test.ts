import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { IDEMPOTENCY_LOCK_MS, withIdempotency } from '../../src/http/idempotency.js';
import { inRequestScope, type RequestClaim } from '../../src/db/request-scope.js';
import { createHarness, expectLedgerOk, fundWallet, signIn, type Harness } from '../helpers/harness.js';

/**
 * Idempotency-Key claims and money (found by the crash matrix): a claim whose request moved money and then lost
 * its answer (the process died, or the handler failed after the commit) is never taken over and run again; a
 * claim whose money transaction rolled back is released for the retry.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** A debit made in the scope of the request whose claim is `claim` (as the operation route runs a handler). */
async function moveMoney(claim: RequestClaim | null, userId: string, thenFail: 'after commit' | 'inside the transaction' | null) {
  await inRequestScope(claim, () => debitIn(userId, thenFail));
  if (thenFail === 'after commit') throw new Error('answer lost after commit');
  return { status: 200, body: { ok: true } };
}

async function debitIn(userId: string, thenFail: 'after commit' | 'inside the transaction' | null) {
  await h.app.services.db.transaction(async (tx) => {
    await h.app.services.ledger.post(tx, {
      reference: `idem_test_${randomUUID()}`,
      type: 'wallet_debit',
      description: 'idempotency test',
      entries: [
        { account: { user: userId, kind: 'wallet' }, amount: -10_000n },
        { account: { system: 'revenue:wallet_debits' }, amount: 10_000n },
      ],
    });
    if (thenFail === 'inside the transaction') throw new Error('failed before commit');
  });
}

const claimOf = async (userId: string, key: string) =>
  rows<{ status: string }>(h.app.services.db, sql`SELECT status FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`);

describe('Idempotency-Key claims that moved money', () => {
  it('money committed, answer lost: the claim stays; a retry is 409 in the lock window and CONFLICT after, never a second debit', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = { userId: u.id, key: `k-${randomUUID()}`, operation: 'debitWalletFn', requestHash: 'h1' };
    await expect(withIdempotency(h.app.services.db, h.clock, claim, (c) => moveMoney(c, u.id, 'after commit'))).rejects.toThrow(
      'answer lost',
    );
    expect(await claimOf(u.id, claim.key)).toEqual([{ status: 'committed' }]);

    let runs = 0;
    const retry = () => withIdempotency(h.app.services.db, h.clock, claim, async (c) => (runs++, moveMoney(c, u.id, null)));
    await expect(retry()).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    h.clock.advance(IDEMPOTENCY_LOCK_MS + 1000);
    await expect(retry()).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(runs).toBe(0);
    expect((await h.app.services.ledger.userBalances(h.app.services.db, u.id)).wallet).toBe(90_000n);
    await expectLedgerOk(h);
  });

  it('money rolled back: the claim is released and the retry runs once', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = { userId: u.id, key: `k-${randomUUID()}`, operation: 'debitWalletFn', requestHash: 'h2' };
    await expect(withIdempotency(h.app.services.db, h.clock, claim, (c) => moveMoney(c, u.id, 'inside the transaction'))).rejects.toThrow(
      'before commit',
    );
    expect(await claimOf(u.id, claim.key)).toEqual([]);
    const again = await withIdempotency(h.app.services.db, h.clock, claim, (c) => moveMoney(c, u.id, null));
    expect(again).toMatchObject({ status: 200, replayed: false });
    expect(await claimOf(u.id, claim.key)).toEqual([{ status: 'done' }]);
    const replay = await withIdempotency(h.app.services.db, h.clock, claim, (c) => moveMoney(c, u.id, null));
    expect(replay.replayed).toBe(true);
    expect((await h.app.services.ledger.userBalances(h.app.services.db, u.id)).wallet).toBe(90_000n);
    await expectLedgerOk(h);
  });

  it('a posting made step by step (one account twice) marks the claim in its transaction too', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = { userId: u.id, key: `k-${randomUUID()}`, operation: 'debitWalletFn', requestHash: 'h5' };
    const stepByStep = async (c: RequestClaim) => {
      await inRequestScope(c, () =>
        h.app.services.db.transaction((tx) =>
          h.app.services.ledger.post(tx, {
            reference: `idem_steps_${randomUUID()}`,
            type: 'wallet_debit',
            description: 'idempotency test, one wallet twice',
            entries: [
              { account: { user: u.id, kind: 'wallet' }, amount: -10_000n },
              { account: { user: u.id, kind: 'wallet' }, amount: 4_000n },
              { account: { system: 'revenue:wallet_debits' }, amount: 6_000n },
            ],
          }),
        ),
      );
      throw new Error('answer lost after commit');
    };
    await expect(withIdempotency(h.app.services.db, h.clock, claim, stepByStep)).rejects.toThrow('answer lost');
    expect(await claimOf(u.id, claim.key)).toEqual([{ status: 'committed' }]);
    expect((await h.app.services.ledger.userBalances(h.app.services.db, u.id)).wallet).toBe(94_000n);
    await expectLedgerOk(h);
  });

  it("the mark travels only with the request's scope: a posting made outside it leaves the claim in flight (and the retry runs again)", async () => {
    // What a posting outside the handler's scope would do: the crash guarantee is gone, which is why only work the
    // request shares with others is set apart, and the registry walk (test/http/claim-walk.test.ts) checks every money
    // operation.
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = { userId: u.id, key: `k-${randomUUID()}`, operation: 'debitWalletFn', requestHash: 'h4' };
    await expect(withIdempotency(h.app.services.db, h.clock, claim, () => moveMoney(null, u.id, 'after commit'))).rejects.toThrow(
      'answer lost',
    );
    expect(await claimOf(u.id, claim.key)).toEqual([]);
  });

  it('a request that moved no money and failed releases its claim as before', async () => {
    const u = await signIn(h);
    const claim = { userId: u.id, key: `k-${randomUUID()}`, operation: 'debitWalletFn', requestHash: 'h3' };
    await expect(
      withIdempotency(h.app.services.db, h.clock, claim, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await claimOf(u.id, claim.key)).toEqual([]);
  });
});
