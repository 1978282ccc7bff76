import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { FreezeDeps } from './deps.js';

/** Freezes a customer (money operations refused, schedules paused) and tells them; freezing twice is a conflict. */
export async function freeze({ db, clock, work, forgetUser, mustExist }: FreezeDeps, operatorId: string, userId: string, reason: string) {
  const u = await mustExist(userId);
  if (u.status !== 'active') throw new AppError('CONFLICT', 'This account is closed');
  const now = clock.now();
  await db.transaction(async (tx) => {
    const done = await one(
      tx,
      sql`INSERT INTO account_freezes (user_id, reason, frozen_by, frozen_at) VALUES (${userId}, ${reason}, ${operatorId}, ${now})
          ON CONFLICT (user_id) DO NOTHING RETURNING 1 AS x`,
    );
    if (!done) throw new AppError('CONFLICT', 'This customer is already frozen');
    await work
      .change(tx)
      .notify({
        userId,
        kind: 'account_frozen',
        title: 'Your account is on hold',
        body: 'Payments from your wallet are paused while we review your account. You can still sign in and see everything. Contact support to learn more.',
      })
      .commit();
  });
  // This instance's cached sessions see it at once; the trigger tells the others at commit.
  forgetUser(userId);
  return { userId, frozen: true, frozenAt: now.toISOString() };
}

/** Lifts a customer's freeze and tells them; unfreezing a customer who is not frozen is a conflict. */
export async function unfreeze({ db, work, forgetUser, mustExist }: FreezeDeps, userId: string) {
  await mustExist(userId);
  await db.transaction(async (tx) => {
    const done = await one(tx, sql`DELETE FROM account_freezes WHERE user_id = ${userId} RETURNING 1 AS x`);
    if (!done) throw new AppError('CONFLICT', 'This customer is not frozen');
    await work
      .change(tx)
      .notify({
        userId,
        kind: 'account_unfrozen',
        title: 'Your account is active again',
        body: 'The hold on your account was lifted: payments and scheduled purchases work again.',
      })
      .commit();
  });
  forgetUser(userId);
  return { userId, frozen: false };
}

/** Whether a customer is frozen now (callers without the cached session state: schedules, external tokens). */
export async function isFrozen({ db }: FreezeDeps, userId: string) {
  return Boolean(await one(db, sql`SELECT 1 AS x FROM account_freezes WHERE user_id = ${userId}`));
}
