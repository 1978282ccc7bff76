import { sql } from 'drizzle-orm';
import { one, type Db } from '../db/client.js';
import { AppError } from './errors.js';
import { DAY, MINUTE, type Clock } from '../lib/clock.js';

/**
 * Idempotency-Key (DESIGN §4): same user + key + same body within 24 h replays the stored answer; a different
 * body is 422; a request still in flight is 409. The row is claimed with INSERT ... ON CONFLICT, so among
 * concurrent requests with one key exactly one executes, on any instance. 5xx answers are not stored, so the
 * client may retry them.
 */
export const IDEMPOTENCY_TTL_MS = DAY;
/** An in-flight claim older than this belongs to a crashed request and may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 2 * MINUTE;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export async function withIdempotency(
  db: Db,
  clock: Clock,
  claim: { userId: string; key: string; operation: string; requestHash: string },
  exec: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const now = clock.now();
  const lockUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_MS);
  const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  // Keys older than 24 h are forgotten.
  await db.execute(sql`DELETE FROM idempotency_keys WHERE user_id = ${claim.userId} AND key = ${claim.key} AND created_at < ${expiredBefore}`);
  let won = await one(
    db,
    sql`INSERT INTO idempotency_keys (user_id, key, operation, request_hash, status, created_at, locked_until)
        VALUES (${claim.userId}, ${claim.key}, ${claim.operation}, ${claim.requestHash}, 'in_flight', ${now}, ${lockUntil})
        ON CONFLICT (user_id, key) DO NOTHING RETURNING 1`,
  );
  if (!won) {
    const row = await one<{ operation: string; request_hash: string; status: string; response_status: number; response_body: unknown; locked_until: Date }>(
      db,
      sql`SELECT operation, request_hash, status, response_status, response_body, locked_until FROM idempotency_keys
          WHERE user_id = ${claim.userId} AND key = ${claim.key}`,
    );
    if (!row) throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is being processed; retry shortly');
    if (row.operation !== claim.operation || row.request_hash !== claim.requestHash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
    }
    if (row.status === 'done') return { status: row.response_status, body: row.response_body, replayed: true };
    won = await one(
      db,
      sql`UPDATE idempotency_keys SET locked_until = ${lockUntil}
          WHERE user_id = ${claim.userId} AND key = ${claim.key} AND status = 'in_flight' AND locked_until < ${now} RETURNING 1`,
    );
    if (!won) throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is being processed; retry shortly');
  }
  let res: StoredResponse;
  try {
    res = await exec();
  } catch (err) {
    await db.execute(sql`DELETE FROM idempotency_keys WHERE user_id = ${claim.userId} AND key = ${claim.key}`);
    throw err;
  }
  if (res.status >= 500) {
    await db.execute(sql`DELETE FROM idempotency_keys WHERE user_id = ${claim.userId} AND key = ${claim.key}`);
  } else {
    await db.execute(sql`UPDATE idempotency_keys SET status = 'done', response_status = ${res.status},
                         response_body = ${JSON.stringify(res.body)}::jsonb WHERE user_id = ${claim.userId} AND key = ${claim.key}`);
  }
  return { ...res, replayed: false };
}
