import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { OPERATOR_ROLES, type OperatorRole } from '../../kernel/actor.js';
import type { OperatorsUseCaseDeps } from './deps.js';

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
  (SELECT count(*)::int FROM passkeys p WHERE p.user_id = u.id) AS passkeys`;

function view({ adminEmails }: OperatorsUseCaseDeps, r: OperatorRow): OperatorView {
  const configAdmin = adminEmails.includes(r.email);
  const held = new Set([...(r.granted ?? []), ...(configAdmin ? ['admin'] : [])]);
  return {
    userId: r.id,
    email: r.email,
    roles: OPERATOR_ROLES.filter((x) => held.has(x)),
    configAdmin,
    twoFactor: { totp: r.totp, passkeys: Number(r.passkeys) },
  };
}

/** The account as an operator (its roles and second factors), or null when there is no such account. */
export async function operatorOf(deps: OperatorsUseCaseDeps, exec: Executor, userId: string): Promise<OperatorView | null> {
  const r = await one<OperatorRow>(exec, sql`SELECT ${operatorColumns} FROM users u WHERE u.id = ${userId}`);
  return r ? view(deps, r) : null;
}

/** The e-mail of every active account holding admin (granted, or through ADMIN_EMAILS). */
export async function adminAddresses({ db, emailList }: OperatorsUseCaseDeps, exec: Executor = db): Promise<string[]> {
  const list = await rows<{ email: string }>(
    exec,
    sql`SELECT u.email FROM users u
        WHERE u.status = 'active' AND (EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = u.id AND r.role = 'admin')
           OR u.email IN (SELECT jsonb_array_elements_text(${emailList}::jsonb)))
        ORDER BY u.email`,
  );
  return list.map((r) => r.email);
}

/**
 * The active accounts holding any of `roles` (granted, or admin through ADMIN_EMAILS when `roles` names admin): who
 * is told of work one of those roles resolves (the console's alerts, issue 44).
 */
export async function holdersOf(
  { db, emailList }: OperatorsUseCaseDeps,
  roles: readonly OperatorRole[],
): Promise<{ userId: string; email: string }[]> {
  const list = await rows<{ id: string; email: string }>(
    db,
    sql`SELECT u.id::text AS id, u.email FROM users u
        WHERE u.status = 'active'
          AND (EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = u.id AND r.role IN (SELECT jsonb_array_elements_text(${JSON.stringify(roles)}::jsonb)))
           OR (${roles.includes('admin')} AND u.email IN (SELECT jsonb_array_elements_text(${emailList}::jsonb))))
        ORDER BY u.email`,
  );
  return list.map((r) => ({ userId: r.id, email: r.email }));
}

/**
 * Since when the operator may decide money requests: the oldest of its roles that allow it (`allowed` besides
 * admin); an ADMIN_EMAILS admin always could (the epoch); null without such a role.
 */
export async function mayDecideSince(
  { db, adminEmails }: OperatorsUseCaseDeps,
  userId: string,
  allowed: readonly OperatorRole[],
): Promise<Date | null> {
  const r = await one<{ email: string; since: Date | null }>(
    db,
    sql`SELECT u.email, (SELECT min(granted_at) FROM operator_roles r
                         WHERE r.user_id = u.id AND r.role IN (SELECT jsonb_array_elements_text(${JSON.stringify(['admin', ...allowed])}::jsonb))) AS since
        FROM users u WHERE u.id = ${userId}`,
  );
  if (!r) return null;
  if (adminEmails.includes(r.email)) return new Date(0);
  return r.since ? new Date(r.since) : null;
}

/** Every account holding a role (granted or by ADMIN_EMAILS), by e-mail. */
export async function listOperators(deps: OperatorsUseCaseDeps): Promise<OperatorView[]> {
  const list = await rows<OperatorRow>(
    deps.db,
    sql`SELECT ${operatorColumns} FROM users u
        WHERE u.status = 'active' AND (EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = u.id)
           OR u.email IN (SELECT jsonb_array_elements_text(${deps.emailList}::jsonb)))
        ORDER BY u.email`,
  );
  return list.map((r) => view(deps, r));
}
