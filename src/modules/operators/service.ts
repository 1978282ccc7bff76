import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { OPERATOR_ROLES, type AuthUser, type OperatorRole } from '../../kernel/actor.js';
import type { Outbox } from '../notifications/api.js';

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
  outbox: Outbox;
}

/** What an admin call changed, as its audit row has it: announced to every admin (registry `announce`). */
export interface AnnouncedChange {
  readonly targets: readonly { type: string; id: string }[];
  readonly changes: readonly { before: unknown; after: unknown }[];
}

export type OperatorsService = ReturnType<typeof createOperators>;

const lagosTime = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().replace('T', ' ').slice(0, 16);

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

  /** The e-mail of every active account holding admin (granted, or through ADMIN_EMAILS). */
  async function adminAddresses(exec: Executor = db): Promise<string[]> {
    const list = await rows<{ email: string }>(
      exec,
      sql`SELECT u.email FROM users u
          WHERE u.status = 'active' AND (EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = u.id AND r.role = 'admin')
             OR u.email IN (SELECT jsonb_array_elements_text(${emailList}::jsonb)))
          ORDER BY u.email`,
    );
    return list.map((r) => r.email);
  }

  return {
    operatorOf,
    adminAddresses,

    /**
     * Since when the operator may decide money requests: the oldest of its roles that allow it (`allowed` besides
     * admin); an ADMIN_EMAILS admin always could (the epoch); null without such a role.
     */
    async mayDecideSince(userId: string, allowed: readonly OperatorRole[]): Promise<Date | null> {
      const r = await one<{ email: string; since: Date | null }>(
        db,
        sql`SELECT u.email, (SELECT min(granted_at) FROM operator_roles r
                             WHERE r.user_id = u.id AND r.role IN (SELECT jsonb_array_elements_text(${JSON.stringify(['admin', ...allowed])}::jsonb))) AS since
            FROM users u WHERE u.id = ${userId}`,
      );
      if (!r) return null;
      if (adminEmails.includes(r.email)) return new Date(0);
      return r.since ? new Date(r.since) : null;
    },

    /** E-mails every admin about an authority change (registry `announce`), in the caller's transaction. */
    async announce(actor: AuthUser, operation: string, change: AnnouncedChange): Promise<void> {
      const to = await adminAddresses();
      const lines = [
        `${operation} was run by ${actor.email} on ${lagosTime(clock.now())} (Lagos time).`,
        ...change.targets.map((t) => `Target: ${t.type} ${t.id}`),
        ...change.changes.map((c) => `Before: ${JSON.stringify(c.before)}\nAfter: ${JSON.stringify(c.after)}`),
        'If you did not expect this change, check the audit log in the console now and revoke what is wrong.',
      ];
      for (const address of to)
        await deps.outbox.sendEmail(db, {
          to: address,
          subject: `Operator change: ${operation} by ${actor.email}`,
          text: lines.join('\n'),
        });
    },

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
