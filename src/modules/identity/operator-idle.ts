import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';

/**
 * Whose request it is (issue 41): a person's action, or one the app makes on its own (the session heartbeat, the
 * silent refresh, polling and refetches it marks `X-Activity: background`).
 */
export type Activity = 'person' | 'background';

/**
 * Operator sessions are shorter (issue 30): one ends after OPERATOR_IDLE_MINUTES without a person's request. Every
 * authenticated request and every refresh of an operator's session is checked and the first one after the idle time
 * ends the session (revoked, reason 'idle') and is refused with 401; only a person's request moves its last_seen_at,
 * so an open tab's heartbeat and silent refresh never keep it alive (issue 41). Either is one statement (an UPDATE
 * for a person's request, a SELECT otherwise); customers' sessions are not checked. A session opened before the
 * column existed counts from its start.
 */
export function createOperatorIdle(deps: { db: Db; clock: Clock; idleMinutes: number; forgetUser(userId: string): void }) {
  const { db, clock, idleMinutes } = deps;
  return {
    idleMinutes,
    async check(sessionId: string, userId: string, activity: Activity): Promise<void> {
      const now = clock.now();
      const cutoff = new Date(now.getTime() - idleMinutes * MINUTE);
      const live = await one(
        db,
        activity === 'person'
          ? sql`UPDATE sessions SET last_seen_at = ${now}
                WHERE id = ${sessionId} AND status = 'active' AND COALESCE(last_seen_at, created_at) > ${cutoff} RETURNING 1`
          : sql`SELECT 1 FROM sessions
                WHERE id = ${sessionId} AND status = 'active' AND COALESCE(last_seen_at, created_at) > ${cutoff}`,
      );
      if (live) return;
      await db.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'idle' WHERE id = ${sessionId} AND status = 'active'`);
      deps.forgetUser(userId);
      throw new AppError('UNAUTHENTICATED', `This operator session ended after ${idleMinutes} minutes without activity; sign in again`);
    },
  };
}
