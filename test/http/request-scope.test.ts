import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { IDEMPOTENCY_LOCK_MS, withIdempotency } from '../../src/http/idempotency.js';
import { apartFromRequests, inRequestScope, requestClaim } from '../../src/db/request-scope.js';
import { createHarness, expectLedgerOk, fundWallet, signIn, type Harness } from '../helpers/harness.js';

/**
 * The request's scope (src/db/request-scope.ts) carries its Idempotency-Key claim to the ledger: every posting
 * asked for while the request's handler runs marks it, nothing else does. Each request here is run as the operation
 * route runs one: withIdempotency's claim, and the handler inside inRequestScope.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const debit = (userId: string) =>
  h.app.services.ledger.postAlone(h.app.services.db, {
    reference: `scope_test_${randomUUID()}`,
    type: 'wallet_debit',
    description: 'request scope test',
    entries: [
      { account: { user: userId, kind: 'wallet' }, amount: -10_000n },
      { account: { system: 'revenue:wallet_debits' }, amount: 10_000n },
    ],
  });

const statusOf = async (userId: string, key: string) =>
  (
    await rows<{ status: string }>(h.app.services.db, sql`SELECT status FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`)
  ).map((r) => r.status);

const keyed = (userId: string) => ({ userId, key: `k-${randomUUID()}`, operation: 'debitWalletFn', requestHash: randomUUID() });
const wallet = async (userId: string) => (await h.app.services.ledger.userBalances(h.app.services.db, userId)).wallet;

describe("a request's scope and its Idempotency-Key claim", () => {
  it('a posting from a promise the handler started, made after the handler returned, does not mark the claim', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = keyed(u.id);
    let go!: () => void;
    const later = new Promise<void>((resolve) => (go = resolve));
    let left!: Promise<unknown>;
    let seen: unknown = 'unset';
    await expect(
      withIdempotency(h.app.services.db, h.clock, claim, async (c) => {
        await inRequestScope(c, async () => {
          // Left running: not awaited by the handler.
          left = later.then(() => ((seen = requestClaim()), debit(u.id)));
          return { status: 200, body: { ok: true } };
        });
        // The handler has returned; its promise posts before the answer is stored, then the process dies.
        go();
        await left;
        throw new Error('killed before the answer was stored');
      }),
    ).rejects.toThrow('killed');
    expect(seen).toBeNull();
    // The posting was no request's: the claim was in flight and is released, as for a request that moved no money.
    expect(await statusOf(u.id, claim.key)).toEqual([]);
    expect(await wallet(u.id)).toBe(90_000n);
    await expectLedgerOk(h);
  });

  it('a promise the handler started and awaits marks the claim as the handler itself does', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = keyed(u.id);
    await expect(
      withIdempotency(h.app.services.db, h.clock, claim, (c) =>
        inRequestScope(c, async () => {
          await new Promise((resolve) => setTimeout(resolve, 1)).then(() => debit(u.id));
          throw new Error('answer lost after commit');
        }),
      ),
    ).rejects.toThrow('answer lost');
    expect(await statusOf(u.id, claim.key)).toEqual(['committed']);
  });

  it('work a request starts for others (apartFromRequests) marks nothing, even while the handler runs', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = keyed(u.id);
    await expect(
      withIdempotency(h.app.services.db, h.clock, claim, (c) =>
        inRequestScope(c, async () => {
          await apartFromRequests(() => debit(u.id));
          expect(await statusOf(u.id, claim.key)).toEqual(['in_flight']);
          throw new Error('refused after shared work');
        }),
      ),
    ).rejects.toThrow('refused');
    expect(await statusOf(u.id, claim.key)).toEqual([]);
    expect(await wallet(u.id)).toBe(90_000n);
  });

  it('several postings in one request: the first to commit marks the claim, the later ones find it marked', async () => {
    const u = await signIn(h);
    await fundWallet(h, u.id, 1000);
    const claim = keyed(u.id);
    const after: string[][] = [];
    await expect(
      withIdempotency(h.app.services.db, h.clock, claim, (c) =>
        inRequestScope(c, async () => {
          await debit(u.id);
          after.push(await statusOf(u.id, claim.key));
          await debit(u.id);
          after.push(await statusOf(u.id, claim.key));
          throw new Error('answer lost after commit');
        }),
      ),
    ).rejects.toThrow('answer lost');
    expect(after).toEqual([['committed'], ['committed']]);
    let runs = 0;
    h.clock.advance(IDEMPOTENCY_LOCK_MS + 1000);
    await expect(withIdempotency(h.app.services.db, h.clock, claim, async () => (runs++, { status: 200, body: {} }))).rejects.toMatchObject(
      { code: 'CONFLICT' },
    );
    expect(runs).toBe(0);
    expect(await wallet(u.id)).toBe(80_000n);
    await expectLedgerOk(h);
  });
});
