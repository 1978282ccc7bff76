import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { OPERATOR_ROLES, type OperatorRole } from '../../kernel/actor.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { UserRow } from './deps.js';

/** 'admin' for the ADMIN_EMAILS accounts, else 'user'. */
export const roleOf = (config: Config, email: string): 'user' | 'admin' =>
  config.adminEmails.includes(email.toLowerCase()) ? 'admin' : 'user';

/** The roles an account holds: its granted rows, and admin for the ADMIN_EMAILS accounts (the first admin). */
export function operatorRolesOf(config: Config, email: string, granted: readonly string[]): OperatorRole[] {
  const roles = new Set(OPERATOR_ROLES.filter((r) => granted.includes(r)));
  if (roleOf(config, email) === 'admin') roles.add('admin');
  return OPERATOR_ROLES.filter((r) => roles.has(r));
}

/** The operator roles granted to an account (its operator_roles rows). */
export const grantedRolesOf = async (db: Db, userId: string) =>
  (await rows<{ role: string }>(db, sql`SELECT role FROM operator_roles WHERE user_id = ${userId}`)).map((r) => r.role);

/** The account of an e-mail address, or null. */
export async function findUserByEmail(exec: Executor, email: string) {
  return one<UserRow>(exec, sql`SELECT * FROM users WHERE email = ${email.toLowerCase()}`);
}

/** The account of an id, or null. */
export async function getUser(exec: Executor, id: string) {
  return one<UserRow>(exec, sql`SELECT * FROM users WHERE id = ${id}`);
}

/** Makes the account of an e-mail address (or finds the one a concurrent request made) and returns it. */
export async function createUser({ clock }: { clock: Clock }, exec: Executor, email: string): Promise<UserRow> {
  const now = clock.now();
  const id = uuid();
  await exec.execute(sql`INSERT INTO users (id, email, created_at, updated_at) VALUES (${id}, ${email.toLowerCase()}, ${now}, ${now})
                         ON CONFLICT (email) DO NOTHING`);
  return (await findUserByEmail(exec, email))!;
}
