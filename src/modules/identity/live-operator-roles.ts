import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { OperatorRole } from '../../kernel/actor.js';
import { MINUTE } from '../../kernel/clock.js';
import { operatorRolesOf } from './accounts.js';
import type { IdentityUseCaseDeps } from './deps.js';

/**
 * An operator's roles as the database holds them now (issue 41), not as the session cache last saw them: for a
 * signed link used outside any request's token (an export's download). With a session (null: an external
 * token's), null once it has ended, expired or idled out; null too when the account is closed.
 */
export async function liveOperatorRoles(
  { db, clock, config, operatorIdle }: IdentityUseCaseDeps,
  userId: string,
  sessionId: string | null,
): Promise<OperatorRole[] | null> {
  const id = /^[0-9a-f-]{36}$/i;
  if (!id.test(userId) || (sessionId !== null && !id.test(sessionId))) return null;
  const now = clock.now();
  const idleCutoff = new Date(now.getTime() - operatorIdle.idleMinutes * MINUTE);
  const r = await one<{ email: string; granted_roles: string[] | null }>(
    db,
    sql`SELECT u.email, ARRAY(SELECT r.role FROM operator_roles r WHERE r.user_id = u.id) AS granted_roles
        FROM users u WHERE u.id = ${userId} AND u.status = 'active'
          AND (${sessionId}::uuid IS NULL OR EXISTS (
            SELECT 1 FROM sessions s WHERE s.id = ${sessionId}::uuid AND s.user_id = u.id AND s.status = 'active'
              AND s.expires_at > ${now} AND COALESCE(s.last_seen_at, s.created_at) > ${idleCutoff}))`,
  );
  return r ? operatorRolesOf(config, r.email, r.granted_roles ?? []) : null;
}
