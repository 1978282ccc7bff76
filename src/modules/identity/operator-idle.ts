import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';

/**
 * Operator sessions are shorter (issue 30): one ends after OPERATOR_IDLE_MINUTES without a request or refresh.
 * Every authenticated request and every refresh of an operator's session moves its last_seen_at; the first one
 * after the idle time ends the session (revoked, reason 'idle') and is refused with 401. Customers' sessions are
 * not touched (no write on their requests). A session opened before the column existed counts from its start.
 */
export function createOperatorIdle(deps: { db: Db; clock: Clock; idleMinutes: number; forgetUser(userId: string): void }) {
  const { db, clock, idleMinutes } = deps;
  return {
    idleMinutes,
    async touch(sessionId: string, userId: string): Promise<void> {
      const now = clock.now();
      const cutoff = new Date(now.getTime() - idleMinutes * MINUTE);
      const live = await one(
        db,
        sql`UPDATE sessions SET last_seen_at = ${now}
            WHERE id = ${sessionId} AND status = 'active' AND COALESCE(last_seen_at, created_at) > ${cutoff} RETURNING 1`,
      );
      if (live) return;
      await db.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'idle' WHERE id = ${sessionId} AND status = 'active'`);
      deps.forgetUser(userId);
      throw new AppError('UNAUTHENTICATED', `This operator session ended after ${idleMinutes} minutes without activity; sign in again`);
    },
  };
}
