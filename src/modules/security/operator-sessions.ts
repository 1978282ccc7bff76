import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';

/** Sessions one list answers at most (newest activity first). */
export const OPERATOR_SESSIONS_MAX = 500;

type SessionRow = {
  id: string;
  user_id: string;
  email: string;
  method: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen: Date;
  expires_at: Date;
};

/** An admin sees and ends every operator's sessions; any other operator only their own (issue 44). */
const isAdmin = (caller: AuthUser) => caller.operatorRoles.includes('admin');

/**
 * Operators' live sessions, for an admin to see and end (issue 30), and for each operator their own (issue 44). An operator is an account holding an operator
 * role (operator_roles) or an ADMIN_EMAILS address. A live session is active, unexpired and not idle longer than
 * OPERATOR_IDLE_MINUTES (an idle one ends at its next use: identity's operator-idle.ts).
 */
export function createOperatorSessions(deps: {
  db: Db;
  clock: Clock;
  adminEmails: readonly string[];
  operatorIdleMinutes: number;
  forgetUser(userId: string): void;
}) {
  const { db, clock } = deps;
  const idleMs = deps.operatorIdleMinutes * MINUTE;
  const emails = JSON.stringify(deps.adminEmails);
  const isOperator = sql`(EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = u.id)
                          OR u.email IN (SELECT jsonb_array_elements_text(${emails}::jsonb)))`;

  return {
    async list(caller: AuthUser, userId: string | undefined) {
      if (!isAdmin(caller) && userId !== undefined && userId !== caller.id)
        throw new AppError('FORBIDDEN', "Only an admin lists another operator's sessions");
      const whose = isAdmin(caller) ? userId : caller.id;
      const now = clock.now();
      const items = await rows<SessionRow>(
        db,
        sql`SELECT s.id, s.user_id, u.email, s.method, s.ip, s.user_agent, s.created_at,
                   COALESCE(s.last_seen_at, s.created_at) AS last_seen, s.expires_at
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.status = 'active' AND s.expires_at > ${now}
              AND COALESCE(s.last_seen_at, s.created_at) > ${new Date(now.getTime() - idleMs)}
              AND ${isOperator} ${whose ? sql`AND s.user_id = ${whose}` : sql``}
            ORDER BY COALESCE(s.last_seen_at, s.created_at) DESC, s.id LIMIT ${OPERATOR_SESSIONS_MAX}`,
      );
      return {
        items: items.map((s) => ({
          sessionId: s.id,
          userId: s.user_id,
          email: s.email,
          method: s.method,
          ip: s.ip,
          userAgent: s.user_agent,
          createdAt: new Date(s.created_at).toISOString(),
          lastSeenAt: new Date(s.last_seen).toISOString(),
          idleEndsAt: new Date(Math.min(new Date(s.last_seen).getTime() + idleMs, new Date(s.expires_at).getTime())).toISOString(),
          current: s.id === caller.sessionId,
        })),
      };
    },

    /**
     * Ends an operator's session at once (its access and refresh tokens are refused from the next request). A caller
     * who is no admin ends only their own: another's is not found, as if it were not there.
     */
    async revoke(caller: AuthUser, sessionId: string) {
      const r = await one<{ user_id: string }>(
        db,
        sql`UPDATE sessions s SET status = 'revoked', revoked_reason = ${`operator_revoked:${caller.id}`}
            FROM users u WHERE u.id = s.user_id AND s.id = ${sessionId} AND s.status = 'active' AND ${isOperator}
              ${isAdmin(caller) ? sql`` : sql`AND s.user_id = ${caller.id}`}
            RETURNING s.user_id`,
      );
      if (!r) throw new AppError('NOT_FOUND', 'No active operator session with that id');
      deps.forgetUser(r.user_id);
      return { revoked: true, userId: r.user_id };
    },
  };
}
