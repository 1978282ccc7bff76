import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { createHarness, signIn, usingPostgres, type Harness } from '../helpers/harness.js';
import { statementsOf } from '../helpers/statements.js';

// The PIN checks of concurrent requests made by one statement (src/modules/identity/pin-batch.ts): PostgreSQL pools.
describe.skipIf(!usingPostgres)('PIN checks in batches', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  const pinRow = async (userId: string) =>
    (
      await rows<{ failed_attempts: number; lock_count: number; locked: boolean }>(
        h.app.services.db,
        sql`SELECT failed_attempts, lock_count, locked_until > ${h.clock.now()} AS locked FROM user_pins WHERE user_id = ${userId} AND kind = 'transaction'`,
      )
    )[0];

  it('one statement checks every user: right, wrong, the wrong one that locks, locked, no PIN; each counted as alone', async () => {
    const { pins } = h.app.services;
    const users = await Promise.all(Array.from({ length: 8 }, () => signIn(h)));
    const [right, wrong, fourth, locked, none, right2, wrong2, rightAfterWrong] = users;
    for (const u of users) if (u !== none) await pins.set(u.id, 'transaction', '2468');
    for (let i = 0; i < 4; i++) await expect(pins.verify(fourth.id, 'transaction', '0000')).rejects.toMatchObject({ code: 'INVALID_PIN' });
    for (let i = 0; i < 5; i++) await pins.verify(locked.id, 'transaction', '0000').catch(() => undefined);
    await expect(pins.verify(rightAfterWrong.id, 'transaction', '1111')).rejects.toMatchObject({ code: 'INVALID_PIN' });

    let outcomes: PromiseSettledResult<void>[] = [];
    const texts = await statementsOf(async () => {
      outcomes = await Promise.allSettled([
        pins.verify(right.id, 'transaction', '2468'),
        pins.verify(wrong.id, 'transaction', '1357'),
        pins.verify(fourth.id, 'transaction', '0000'),
        pins.verify(locked.id, 'transaction', '2468'),
        pins.verify(none.id, 'transaction', '2468'),
        pins.verify(right2.id, 'transaction', '2468'),
        pins.verify(wrong2.id, 'transaction', '9999'),
        pins.verify(rightAfterWrong.id, 'transaction', '2468'),
      ]);
    });
    const code = (r: PromiseSettledResult<void>) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok');
    expect(outcomes.map(code)).toEqual(['ok', 'INVALID_PIN', 'PIN_LOCKED', 'PIN_LOCKED', 'PIN_NOT_SET', 'ok', 'INVALID_PIN', 'ok']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ details: { triesLeft: 4 } });
    // One counting statement for all eight (the refusals then read their row alone).
    expect(texts.filter((t) => /^WITH r AS \(SELECT \* FROM jsonb_to_recordset/.test(t))).toHaveLength(1);
    expect(await pinRow(right.id)).toEqual({ failed_attempts: 0, lock_count: 0, locked: null });
    expect(await pinRow(wrong.id)).toEqual({ failed_attempts: 1, lock_count: 0, locked: null });
    expect(await pinRow(fourth.id)).toEqual({ failed_attempts: 0, lock_count: 1, locked: true });
    expect(await pinRow(locked.id)).toEqual({ failed_attempts: 0, lock_count: 1, locked: true });
    expect(await pinRow(rightAfterWrong.id)).toEqual({ failed_attempts: 0, lock_count: 0, locked: null });
  });

  it('guesses at one PIN never share a batch: 60 at once among other users are still checked one at a time, at most 5', async () => {
    const { pins } = h.app.services;
    const target = await signIn(h);
    const others = await Promise.all(Array.from({ length: 6 }, () => signIn(h)));
    for (const u of [target, ...others]) await pins.set(u.id, 'transaction', '2468');
    const guesses = Array.from({ length: 60 }, (_, i) => String(1000 + i));
    const results = await Promise.allSettled([
      ...guesses.map((g) => pins.verify(target.id, 'transaction', g)),
      ...others.map((u) => pins.verify(u.id, 'transaction', '2468')),
    ]);
    const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'ok'));
    expect(codes.slice(0, 60).filter((c) => c === 'INVALID_PIN')).toHaveLength(4);
    expect(codes.slice(0, 60).filter((c) => c === 'PIN_LOCKED')).toHaveLength(56);
    expect(codes.slice(60)).toEqual(others.map(() => 'ok'));
    expect(await pinRow(target.id)).toMatchObject({ lock_count: 1, locked: true });
  });
});
