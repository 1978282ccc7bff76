import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { OperatorRole } from '../../kernel/actor.js';
import type { Change } from '../../platform/change.js';
import { operatorOf, type OperatorView } from './operator-reads.js';
import { inviteOperator, type InvitationView } from './invitations.js';
import type { OperatorsUseCaseDeps } from './deps.js';

export type Granted = { before: OperatorView; after: OperatorView; invitation?: never } | { invitation: InvitationView };

/**
 * Grants a role to the account with this e-mail; granting a held role changes nothing. An e-mail with no account yet
 * is invited instead (invitations.ts): its first sign-in grants the role. A closed account is NOT_FOUND.
 */
export async function grantRole(
  deps: OperatorsUseCaseDeps,
  actor: { id: string; email: string },
  email: string,
  role: OperatorRole,
): Promise<Granted> {
  const { db, clock } = deps;
  const user = await one<{ id: string; status: string }>(
    db,
    sql`SELECT id::text AS id, status FROM users WHERE email = ${email.toLowerCase()}`,
  );
  if (!user) return { invitation: await inviteOperator(deps, actor, email, role) };
  if (user.status !== 'active') throw new AppError('NOT_FOUND', 'The account of that e-mail is closed');
  const before = (await operatorOf(deps, db, user.id))!;
  await db.execute(sql`INSERT INTO operator_roles (user_id, role, granted_by, granted_at)
                       VALUES (${user.id}, ${role}, ${actor.id}, ${clock.now()}) ON CONFLICT (user_id, role) DO NOTHING`);
  return { before, after: (await operatorOf(deps, db, user.id))! };
}

/**
 * 'user.created': the new account's pending, unexpired invitations become its roles and are marked accepted, in the
 * sign-up's own transaction (an expired one grants nothing). The role rows' trigger announces auth_changed.
 */
export function acceptInvitations(deps: OperatorsUseCaseDeps, change: Change, userId: string): void {
  const now = deps.clock.now();
  change.write(
    (each) => sql`INSERT INTO operator_roles (user_id, role, granted_by, granted_at)
      SELECT u.id, i.role, i.invited_by, ${now}::timestamptz
      FROM ${each}, operator_invitations i JOIN users u ON u.email = i.email
      WHERE u.id = ${userId}::uuid AND i.status = 'pending' AND i.expires_at > ${now}::timestamptz
      ON CONFLICT (user_id, role) DO NOTHING`,
  );
  change.write(
    (each) => sql`UPDATE operator_invitations i SET status = 'accepted', accepted_user_id = u.id, ended_at = ${now}::timestamptz
      FROM ${each}, users u
      WHERE u.id = ${userId}::uuid AND u.email = i.email AND i.status = 'pending' AND i.expires_at > ${now}::timestamptz`,
  );
}

/**
 * Revokes a granted role. The admin role of an ADMIN_EMAILS account is the setting's (CONFLICT); the last admin
 * cannot lose it (CONFLICT): the admin rows are locked first, so two admins revoking each other at once cannot
 * both succeed.
 */
export async function revokeRole(deps: OperatorsUseCaseDeps, userId: string, role: OperatorRole) {
  const { db, emailList } = deps;
  return db.transaction(async (tx) => {
    const before = await operatorOf(deps, tx, userId);
    if (!before) throw notFound('Operator');
    if (role === 'admin') {
      const admins = await rows<{ user_id: string }>(
        tx,
        sql`SELECT user_id::text AS user_id FROM operator_roles WHERE role = 'admin' ORDER BY user_id FOR UPDATE`,
      );
      const configAdmins = await rows<{ id: string }>(
        tx,
        sql`SELECT id::text AS id FROM users WHERE status = 'active' AND email IN (SELECT jsonb_array_elements_text(${emailList}::jsonb))`,
      );
      if (before.configAdmin)
        throw new AppError('CONFLICT', `${before.email} is an admin through ADMIN_EMAILS; change that setting to remove it`);
      const others = new Set([...admins.map((a) => a.user_id), ...configAdmins.map((a) => a.id)].filter((id) => id !== userId));
      if (before.roles.includes('admin') && others.size === 0)
        throw new AppError('CONFLICT', 'This is the last admin: grant admin to someone else first');
    }
    const gone = await one(tx, sql`DELETE FROM operator_roles WHERE user_id = ${userId} AND role = ${role} RETURNING 1 AS x`);
    if (!gone) throw notFound('Role');
    return { before, after: (await operatorOf(deps, tx, userId))! };
  });
}
