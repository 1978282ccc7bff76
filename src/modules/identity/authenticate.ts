import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Activity } from './operator-idle.js';
import type { AccessClaims } from './tokens.js';
import type { SessionState } from './session-cache.js';
import { createUser, findUserByEmail, grantedRolesOf, operatorRolesOf, roleOf } from './accounts.js';
import type { IdentityUseCaseDeps } from './deps.js';
import { PENDING_SECOND_FACTOR } from './sessions.js';

/**
 * Bearer token -> caller. One query checks session state, account state and tier; an operator's session is also
 * checked for idleness, and a person's request moves its idle clock (operator-idle.ts).
 */
export async function authenticate(
  deps: IdentityUseCaseDeps,
  token: string,
  activity: Activity = 'person',
  pendingSignIn = false,
): Promise<AuthUser> {
  const { tokens, config, operatorIdle } = deps;
  const claims = await tokens.verifyAccess(token);
  if (!claims) throw new AppError('UNAUTHENTICATED', 'Access token is missing, invalid or expired');
  if (claims.external) return externalCaller(deps, claims);
  const sid = claims.sid;
  if (!sid) throw new AppError('UNAUTHENTICATED', 'Access token is missing, invalid or expired');
  const row = await sessionState(deps, sid, claims.sub);
  if (row.status === 'superseded') throw new AppError('SESSION_SUPERSEDED', 'This session was ended by a sign-in on another device');
  if (row.status === PENDING_SECOND_FACTOR && !pendingSignIn)
    throw new AppError(
      'SECOND_FACTOR_REQUIRED',
      'This sign-in is not finished: enter the code from your authenticator app or a recovery code (completeSignIn) first',
    );
  if (row.status !== 'active' && !(pendingSignIn && row.status === PENDING_SECOND_FACTOR))
    throw new AppError('UNAUTHENTICATED', 'This session has ended; sign in again');
  if (row.userStatus !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
  const operatorRoles = operatorRolesOf(config, row.email, row.grantedRoles);
  if (operatorRoles.length) await operatorIdle.check(sid, claims.sub, activity);
  return {
    id: claims.sub,
    email: row.email,
    username: row.username,
    role: operatorRoles.length ? 'admin' : 'user',
    operatorRoles,
    sessionId: sid,
    kycTier: row.kycTier,
    twoFactor: row.twoFactor,
    frozen: row.frozen,
  };
}

/** The caller of an external token: its e-mail's account, made when there is none. */
async function externalCaller(deps: IdentityUseCaseDeps, claims: AccessClaims): Promise<AuthUser> {
  const { db, config } = deps;
  let user = await findUserByEmail(db, claims.email!);
  if (!user) user = await createUser(deps, db, claims.email!);
  if (user.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
  // An external token is an operator only when the operator chose so (AUTH_EXTERNAL_ADMIN).
  const operatorRoles = config.auth.externalAdmin ? operatorRolesOf(config, user.email, await grantedRolesOf(db, user.id)) : [];
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    role: operatorRoles.length ? 'admin' : 'user',
    operatorRoles,
    sessionId: null,
    kycTier: user.kyc_tier,
  };
}

/** The session's and its account's state: from the session cache, else read (and cached while both are active). */
async function sessionState({ db, sessionCache }: IdentityUseCaseDeps, sid: string, userId: string): Promise<SessionState> {
  const cached = sessionCache.get(sid);
  if (cached && cached.userId === userId) return cached;
  const generation = sessionCache.generation();
  const r = await one<{
    status: string;
    email: string;
    username: string | null;
    user_status: string;
    kyc_tier: number;
    two_factor: boolean;
    frozen: boolean;
    granted_roles: string[] | null;
  }>(
    db,
    sql`SELECT s.status, u.email, u.username, u.status AS user_status, u.kyc_tier,
               EXISTS (SELECT 1 FROM account_freezes z WHERE z.user_id = u.id) AS frozen,
               EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL) AS two_factor,
               ARRAY(SELECT r.role FROM operator_roles r WHERE r.user_id = u.id) AS granted_roles
        FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${sid} AND s.user_id = ${userId}`,
  );
  if (!r) throw new AppError('UNAUTHENTICATED', 'Session not found');
  const row: SessionState = {
    userId,
    status: r.status,
    email: r.email,
    username: r.username,
    userStatus: r.user_status,
    kycTier: r.kyc_tier,
    twoFactor: r.two_factor,
    frozen: r.frozen,
    grantedRoles: r.granted_roles ?? [],
  };
  if (row.status === 'active' && row.userStatus === 'active') sessionCache.put(sid, row, generation);
  return row;
}

/** An API key holder's account as a key's request needs it (issue 45): e-mail, username, status, tier, frozen. */
export interface KeyHolder {
  email: string;
  username: string | null;
  status: string;
  kycTier: number;
  frozen: boolean;
}

/**
 * The holder of an API key: from the session cache (an entry `holder:<user id>`, dropped with the user's sessions by
 * the same `auth_changed` messages: status, e-mail, username, tier, freezes), else read in one statement and cached
 * while the account is active. A key's request then spends no round trip on its account, as a session's does not.
 */
export async function keyHolder({ db, sessionCache }: IdentityUseCaseDeps, userId: string): Promise<KeyHolder | null> {
  const slot = `holder:${userId}`;
  const cached = sessionCache.get(slot);
  if (cached && cached.userId === userId) return holderOf(cached);
  const generation = sessionCache.generation();
  const r = await one<{ email: string; username: string | null; status: string; kyc_tier: number; frozen: boolean }>(
    db,
    sql`SELECT u.email, u.username, u.status, u.kyc_tier, EXISTS (SELECT 1 FROM account_freezes z WHERE z.user_id = u.id) AS frozen
        FROM users u WHERE u.id = ${userId}`,
  );
  if (!r) return null;
  const state: SessionState = {
    userId,
    status: 'active',
    email: r.email,
    username: r.username,
    userStatus: r.status,
    kycTier: r.kyc_tier,
    twoFactor: false,
    frozen: r.frozen,
    grantedRoles: [],
  };
  if (r.status === 'active') sessionCache.put(slot, state, generation);
  return holderOf(state);
}

const holderOf = (s: SessionState): KeyHolder => ({
  email: s.email,
  username: s.username,
  status: s.userStatus,
  kycTier: s.kycTier,
  frozen: s.frozen,
});

/**
 * Issue 43: whether a sign-in from a device the account does not know waits for the second factor. A customer with a
 * confirmed authenticator: yes, unless a reset's wait is over (it is removed at the next read: the owner who lost it
 * signs in); an operator (by address or granted role) is held by OPERATOR_2FA and step-up instead.
 */
export async function signInNeedsSecondFactor(deps: IdentityUseCaseDeps, user: { id: string; email: string }) {
  const { db, config } = deps;
  if (roleOf(config, user.email) === 'admin') return false;
  const r = await one<{ needs: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = ${user.id} AND f.confirmed_at IS NOT NULL)
               AND NOT EXISTS (SELECT 1 FROM two_factor_resets t WHERE t.user_id = ${user.id} AND t.cancelled_at IS NULL
                                 AND t.completed_at IS NULL AND t.effective_at <= ${deps.clock.now()})
               AND NOT EXISTS (SELECT 1 FROM operator_roles r WHERE r.user_id = ${user.id}) AS needs`,
  );
  return Boolean(r?.needs);
}
