import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { OperatorRole } from '../../kernel/actor.js';
import { operatorOf } from './operator-reads.js';
import type { OperatorsUseCaseDeps } from './deps.js';

/** Grants a role to the account with this e-mail (it must have signed in once); granting a held role changes nothing. */
export async function grantRole(deps: OperatorsUseCaseDeps, actorId: string, email: string, role: OperatorRole) {
  const { db, clock } = deps;
  const user = await one<{ id: string; status: string }>(
    db,
    sql`SELECT id::text AS id, status FROM users WHERE email = ${email.toLowerCase()}`,
  );
  if (!user || user.status !== 'active')
    throw new AppError('NOT_FOUND', 'No account has that e-mail: the person signs in once, then can be given a role');
  const before = (await operatorOf(deps, db, user.id))!;
  await db.execute(sql`INSERT INTO operator_roles (user_id, role, granted_by, granted_at)
                       VALUES (${user.id}, ${role}, ${actorId}, ${clock.now()}) ON CONFLICT (user_id, role) DO NOTHING`);
  return { before, after: (await operatorOf(deps, db, user.id))! };
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
