import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { sha256 } from '../../lib/crypto.js';
import type { FactorRow, TwoFactorDeps } from './two-factor-deps.js';

/** An operator's passkey is a second factor (issue 30); a customer has none (registering one is an operator's operation). */
export const passkeyOn = async ({ passkeys }: TwoFactorDeps, user: AuthUser) => user.role === 'admin' && (await passkeys.has(user.id));

/** A grant is valid for the user and the session it was issued to, until it expires or is revoked. */
export async function grantValid({ db, clock }: TwoFactorDeps, user: AuthUser, grantToken: string | undefined): Promise<boolean> {
  if (!grantToken || grantToken.length > 200) return false;
  const g = await one<{ user_id: string; session_id: string | null; expires_at: Date; revoked_at: Date | null }>(
    db,
    sql`SELECT user_id, session_id, expires_at, revoked_at FROM stepup_grants WHERE token_hash = ${sha256(grantToken)}`,
  );
  if (!g || g.user_id !== user.id || g.revoked_at) return false;
  if ((g.session_id ?? null) !== (user.sessionId ?? null)) return false;
  return new Date(g.expires_at).getTime() > clock.now().getTime();
}

/**
 * docs/design.md §5: e-mail is never the only factor while TOTP is on. An e-mailed step-up code therefore confirms
 * only a session opened with the login PIN; a session opened with an e-mailed login code needs the app code.
 */
export async function emailStepUpAllowed(deps: TwoFactorDeps, user: AuthUser, f: FactorRow | undefined): Promise<boolean> {
  if (!f?.confirmed_at && !(await passkeyOn(deps, user))) return true;
  if (!user.sessionId) return false;
  const s = await one<{ method: string }>(deps.db, sql`SELECT method FROM sessions WHERE id = ${user.sessionId}`);
  return s?.method === 'pin';
}
