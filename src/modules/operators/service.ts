import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { OPERATOR_ROLES, type OperatorRole } from '../../kernel/actor.js';

/**
 * Operators and their roles (issue 30, docs/security.md "Operator roles"): rows of operator_roles (migration
 * 1000), plus admin for the ADMIN_EMAILS accounts, who are admins by configuration and cannot be revoked here.
 * A grant or revocation is announced on auth_changed (the row's trigger), so every instance's session cache
 * drops the account and its next request carries the new roles.
 */
export interface OperatorsDeps {
  db: Db;
  clock: Clock;
  /** ADMIN_EMAILS, lower-case. */
  adminEmails: readonly string[];
}

export interface OperatorView {
  userId: string;
  email: string;
  roles: OperatorRole[];
  /** An admin through ADMIN_EMAILS (the first admin): that role is the setting's, not revocable here. */
  configAdmin: boolean;
  twoFactor: { totp: boolean; passkeys: number };
}

type OperatorRow = { id: string; email: string; granted: string[] | null; totp: boolean; passkeys: number };

const operatorColumns = sql`u.id::text AS id, u.email,
  ARRAY(SELECT r.role FROM operator_roles r WHERE r.user_id = u.id) AS granted,
  EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL) AS totp,
  (SELECT count(*)::int FROM operator_passkeys p WHERE p.user_id = u.id) AS passkeys`;

export function createOperators(deps: OperatorsDeps) {
  const { db, clock } = deps;
  const adminEmails = deps.adminEmails.map((e) => e.toLowerCase());
  const emailList = JSON.stringify(adminEmails);

  const view = (r: OperatorRow): OperatorView => {
    const configAdmin = adminEmails.includes(r.email);
    const held = new Set([...(r.granted ?? []), ...(configAdmin ? ['admin'] : [])]);
    return {
      userId: r.id,
      email: r.email,
      roles: OPERATOR_ROLES.filter((x) => held.has(x)),
      configAdmin,
      twoFactor: { totp: r.totp, passkeys: Number(r.passkeys) },
    };
  };

  async function operatorOf(exec: Executor, userId: string): Promise<OperatorView | null> {
    const r = await one<OperatorRow>(exec, sql`SELECT ${operatorColumns} FROM users u WHERE u.id = ${userId}`);
    return r ? view(r) : null;
  }

  return {
    operatorOf,

    /** Every account holding a role (granted or by ADMIN_EMAILS), by e-mail. */
    async list(): Promise<OperatorView[]> {
      const list = await rows<OperatorRow>(
        db,
        sql`SELECT ${operatorColumns} FROM users u
            WHERE u.status = 'active' AND (EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = u.id)
               OR u.email IN (SELECT jsonb_array_elements_text(${emailList}::jsonb)))
            ORDER BY u.email`,
      );
      return list.map(view);
    },

    /** Grants a role to the account with this e-mail (it must have signed in once); granting a held role changes nothing. */
    async grant(actorId: string, email: string, role: OperatorRole) {
      const user = await one<{ id: string; status: string }>(
        db,
        sql`SELECT id::text AS id, status FROM users WHERE email = ${email.toLowerCase()}`,
      );
      if (!user || user.status !== 'active')
        throw new AppError('NOT_FOUND', 'No account has that e-mail: the person signs in once, then can be given a role');
      const before = (await operatorOf(db, user.id))!;
      await db.execute(sql`INSERT INTO operator_roles (user_id, role, granted_by, granted_at)
                           VALUES (${user.id}, ${role}, ${actorId}, ${clock.now()}) ON CONFLICT (user_id, role) DO NOTHING`);
      return { before, after: (await operatorOf(db, user.id))! };
    },

    /**
     * Revokes a granted role. The admin role of an ADMIN_EMAILS account is the setting's (CONFLICT); the last admin
     * cannot lose it (CONFLICT): the admin rows are locked first, so two admins revoking each other at once cannot
     * both succeed.
     */
    async revoke(userId: string, role: OperatorRole) {
      return db.transaction(async (tx) => {
        const before = await operatorOf(tx, userId);
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
        return { before, after: (await operatorOf(tx, userId))! };
      });
    },
  };
}
