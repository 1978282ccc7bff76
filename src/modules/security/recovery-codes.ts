import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import type { CredentialNotices } from './credential-notices.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import { hmac } from '../../lib/crypto.js';

/**
 * Two-factor recovery codes (issue 43): RECOVERY_CODE_COUNT one-use codes, made when the authenticator is confirmed
 * and again on request (the old set goes), shown once and stored as keyed hashes (HMAC under PIN_PEPPER, bound to the
 * account). One passes the sign-in's second step in place of the authenticator's code, once.
 */
export const RECOVERY_CODE_COUNT = 10;

/** No 0/O, 1/I/L: a code is copied by hand from paper. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** XXXXX-XXXXX: 50 bits from the alphabet's 31 letters and digits. */
const newCode = () => {
  const c = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${c.slice(0, 5)}-${c.slice(5)}`;
};

/** What a typed code is compared as: upper case, no spaces or dash. */
export const normalRecoveryCode = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, '');

const hashOf = (pepper: string, userId: string, code: string) => hmac(pepper, `recovery:${userId}:${normalRecoveryCode(code)}`);

export interface RecoveryCodeDeps {
  clock: Clock;
  pepper: string;
}

/** A new set replaces the account's codes, inside the caller's transaction; the codes are returned this once. */
export async function replaceRecoveryCodes({ clock, pepper }: RecoveryCodeDeps, exec: Executor, userId: string): Promise<string[]> {
  const now = clock.now();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await exec.execute(sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`);
  await exec.execute(
    sql`INSERT INTO recovery_codes (id, user_id, code_hash, created_at) VALUES ${sql.join(
      codes.map((c) => sql`(${prefixedId('rc')}, ${userId}, ${hashOf(pepper, userId, c)}, ${now})`),
      sql`, `,
    )}`,
  );
  return codes;
}

/** Spends a code inside the caller's transaction: true once per code (the conditional UPDATE refuses a second use). */
export async function spendRecoveryCode({ clock, pepper }: RecoveryCodeDeps, exec: Executor, userId: string, code: string) {
  const r = await one(
    exec,
    sql`UPDATE recovery_codes SET used_at = ${clock.now()}
        WHERE user_id = ${userId} AND code_hash = ${hashOf(pepper, userId, code)} AND used_at IS NULL RETURNING 1`,
  );
  return Boolean(r);
}

/** How many unused codes the account has. */
export async function recoveryCodesLeft(exec: Executor, userId: string): Promise<number> {
  const r = await one<{ n: number }>(
    exec,
    sql`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = ${userId} AND used_at IS NULL`,
  );
  return r?.n ?? 0;
}

/** The authenticator is gone (turned off, reset): its recovery codes go with it, in the same transaction. */
export async function deleteRecoveryCodes(exec: Executor, userId: string): Promise<void> {
  await exec.execute(sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`);
}

/** A new set replaces the old while the authenticator is on; the owner is told (a credential notice). */
export async function regenerateRecoveryCodes(
  deps: RecoveryCodeDeps & { db: Db; notices: CredentialNotices },
  factorOf: (userId: string) => Promise<{ confirmed_at: Date | null } | undefined>,
  user: AuthUser,
) {
  const f = await factorOf(user.id);
  if (!f?.confirmed_at) throw new AppError('CONFLICT', 'Set up an authenticator app first: recovery codes stand in for its codes');
  const recoveryCodes = await deps.db.transaction(async (tx) => {
    await deps.notices.notify(tx, user.id, 'recovery_codes_regenerated');
    return replaceRecoveryCodes(deps, tx, user.id);
  });
  return { recoveryCodes };
}
