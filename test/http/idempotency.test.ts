import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withIdempotency } from '../../src/http/idempotency.js';
import {
  call,
  createHarness,
  emailGrant,
  expectLedgerOk,
  fundWallet,
  signIn,
  usingPostgres,
  type Harness,
  type TestUser,
} from '../helpers/harness.js';
import { balance, tier2User } from '../payments/helpers.js';
import { roundTripsOf } from '../helpers/statements.js';

let h: Harness;
let u: TestUser;
beforeAll(async () => {
  h = await createHarness();
  u = await signIn(h);
  grant = await emailGrant(h, u);
});
afterAll(async () => h.close());

// Renaming needs a step-up grant (issue #28): u's, sent with every update (other users' updates only fill empty names).
let grant: Record<string, string> = {};
const update = (data: Record<string, unknown>, key?: string, token = u.token) =>
  call(h, 'POST', '/_serverFn/updateProfileBearerSettings', data, {
    token,
    headers: { ...(token === u.token ? grant : {}), ...(key ? { 'idempotency-key': key } : {}) },
  });

describe('Idempotency-Key', () => {
  it('replays the stored answer with Idempotent-Replayed: true', async () => {
    const first = await update({ fullName: 'First Name' }, 'key-1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Change the profile behind the key's back: a replay must still show the first answer.
    await update({ fullName: 'Changed Meanwhile' });
    const replay = await update({ fullName: 'First Name' }, 'key-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(replay.body).toBe(first.body); // byte for byte, key order included
  });

  it('the same body with its keys in another order is the same request (canonical JSON fingerprint)', async () => {
    const username = `ord_${Date.now().toString(36)}`;
    const first = await update({ fullName: 'Ordered Name', username }, 'key-order');
    expect(first.statusCode).toBe(200);
    const again = await update({ username, fullName: 'Ordered Name' }, 'key-order');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('the same key with a different body is 422', async () => {
    await update({ fullName: 'Body A' }, 'key-2');
    const res = await update({ fullName: 'Body B' }, 'key-2');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keys are per user', async () => {
    const other = await signIn(h);
    await update({ fullName: 'Mine' }, 'shared-key');
    const res = await update({ fullName: 'Theirs' }, 'shared-key', other.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('error answers are replayed too; keys expire after 24 h', async () => {
    const bad = await update({ username: 'x' }, 'key-3');
    expect(bad.statusCode).toBe(400);
    const replay = await update({ username: 'x' }, 'key-3');
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    h.clock.advance(24 * 3600 * 1000 + 1);
    u = await signIn(h); // the access token expired with the clock; the key is per user, so reuse its id
    grant = await emailGrant(h, u); // grants end with their session
    const fresh = await call(
      h,
      'POST',
      '/_serverFn/updateProfileBearerSettings',
      { username: 'x' },
      { token: u.token, headers: { 'idempotency-key': 'key-3' } },
    );
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('20 concurrent requests with one key execute once', async () => {
    let executions = 0;
    const claim = { userId: u.id, key: 'concurrent', operation: 'test', requestHash: 'h' };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        withIdempotency(h.app.services.db, h.clock, claim, async () => {
          executions++;
          await new Promise((r) => setTimeout(r, 20));
          return { status: 200, body: { ok: true, n: executions } };
        }),
      ),
    );
    expect(executions).toBe(1);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.body).toEqual({ ok: true, n: 1 });
      else expect((r.reason as { code: string }).code).toBe('IDEMPOTENCY_IN_PROGRESS');
    }
    // Afterwards every retry replays.
    const again = await withIdempotency(h.app.services.db, h.clock, claim, async () => {
      executions++;
      return { status: 200, body: {} };
    });
    expect(again.replayed).toBe(true);
    expect(executions).toBe(1);
  });

  it('20 concurrent HTTP requests with one key: one executes, the rest replay or get 409', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => update({ fullName: 'Concurrent Name' }, 'http-concurrent')));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const executed = results.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    expect(executed).toHaveLength(1);
  });

  it('a key longer than 255 characters is refused', async () => {
    const res = await update({ fullName: 'Long Key' }, 'k'.repeat(256));
    expect(res.statusCode).toBe(400);
  });
});

describe('an idempotent operation with a read-ahead', () => {
  const uname = (p: string) => `${p}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e4)}`;
  const setup = async () => {
    const from = await tier2User(h, { username: uname('idf'), fullName: 'Ada Obi', pin: '1234', tier: 3 });
    const to = await tier2User(h, { username: uname('idt'), fullName: 'Bola Ade' });
    await fundWallet(h, from.id, 1000);
    const username = (
      (await h.app.services.db.execute(sql`SELECT username FROM users WHERE id = ${to.id}`)) as unknown as { rows: { username: string }[] }
    ).rows[0].username;
    const transfer = (pin: string, key: string) =>
      call(
        h,
        'POST',
        '/_serverFn/transferWalletFnBearerWallet',
        { username, amount: 100, pin },
        { token: from.token, headers: { 'idempotency-key': key } },
      );
    return { from, to, transfer };
  };

  it('a wrong PIN under a key is refused once and replayed; a retry with the key moves the money once', async () => {
    const { from, to, transfer } = await setup();
    const wrong = await transfer('9999', 'pin-wrong');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_PIN');
    const replay = await transfer('9999', 'pin-wrong');
    expect(replay.json()).toEqual(wrong.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const [a, b] = await Promise.all([transfer('1234', 'pin-right'), transfer('1234', 'pin-right')]);
    // Both answer 200 (one executed, one replayed), or the loser is told the request is in flight (409).
    expect([a.statusCode, b.statusCode].every((s) => s === 200 || s === 409) && [a.statusCode, b.statusCode].includes(200)).toBe(true);
    const again = await transfer('1234', 'pin-right');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balance(h, from)).toBe(900);
    expect(await balance(h, to)).toBe(100);
    await expectLedgerOk(h);
  });

  // The PIN is checked and counted in one UPDATE of its own (never read ahead: a read-ahead PIN row let
  // parallel guesses pass the lock), so a transfer is: claim with the recipient, PIN check, posting, answer.
  it.skipIf(!usingPostgres)(
    'reads the recipient in the claim round trip; the PIN check is one statement: claim, PIN, posting, answer',
    async () => {
      const { transfer } = await setup();
      expect((await transfer('1234', 'warm-up')).statusCode).toBe(200); // session and verified PIN now cached
      const trips = await roundTripsOf(async () => {
        expect((await transfer('1234', 'counted')).statusCode).toBe(200);
      });
      expect(trips).toHaveLength(4);
      expect(trips[0][0]).toMatch(/^INSERT INTO idempotency_keys/);
      // The operation's reads (the recipient, the payer's KYC) each its own statement, written with the claim.
      expect(trips[0].slice(1).some((t) => /json_build_object\('id', id, 'username'/.test(t))).toBe(true);
      expect(trips[1]).toEqual([expect.stringMatching(/^WITH r AS .* UPDATE user_pins p SET/s)]);
      // The posting and its parts (both notifications, the claim's mark), each its own statement, in one transaction.
      expect(trips[2][0]).toBe('BEGIN');
      expect(trips[2][1]).toMatch(/INSERT INTO ledger_transactions/);
      expect(trips[2].some((t) => /INSERT INTO notifications/.test(t) && !/ledger_transactions/.test(t))).toBe(true);
      expect(trips[2].some((t) => /UPDATE idempotency_keys SET status = 'committed'/.test(t) && !/ledger_transactions/.test(t))).toBe(true);
      expect(trips[2][trips[2].length - 1]).toBe('COMMIT');
      expect(trips[3]).toEqual([expect.stringMatching(/^UPDATE idempotency_keys k SET status = 'done'/)]);
    },
  );
});
