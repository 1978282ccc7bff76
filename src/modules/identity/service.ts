import { createCodeMail } from './code-mail.js';
import { createOperatorIdle, type Activity } from './operator-idle.js';
import { createUser, findUserByEmail, getUser, roleOf } from './accounts.js';
import { openSession, signOut } from './sessions.js';
import { sendLoginOtp, verifyLoginOtp } from './login-otp.js';
import { refreshSession } from './refresh-session.js';
import { authenticate, keyHolder, signInNeedsSecondFactor } from './authenticate.js';
import { liveOperatorRoles } from './live-operator-roles.js';
import { updateProfile } from './update-profile.js';
import type { IdentityDeps, IdentityUseCaseDeps } from './deps.js';

export type { IdentityDeps, SessionView, UserRow } from './deps.js';
export { SESSION_TTL_MS } from './sessions.js';

export type IdentityService = ReturnType<typeof createIdentityService>;

/** Identity's sign-in, sessions and profile: one file per use case, wired here with the parts they share. */
export function createIdentityService(deps: IdentityDeps) {
  const { db, clock, config, otp, devices, mailer, sessionCache } = deps;
  const codeMail = createCodeMail({ mailer, outbox: deps.outbox, db, clock });
  const operatorIdle = createOperatorIdle({ db, clock, idleMinutes: config.operators.idleMinutes, forgetUser: sessionCache.forgetUser });
  const useCases: IdentityUseCaseDeps = { ...deps, codeMail, operatorIdle };

  return {
    roleOf: (email: string) => roleOf(config, email),
    getUser,
    findUserByEmail,
    /** The account of an e-mail, made when there is none: a test key's shadow account in the test world (issue 45). */
    ensureUser: async (email: string) => (await findUserByEmail(db, email)) ?? createUser(deps, db, email),
    openSession: (user: Parameters<typeof openSession>[1], method: string, meta?: Parameters<typeof openSession>[3], pending = false) =>
      openSession(deps, user, method, meta, pending),
    /** Issue 43: whether a sign-in from a device the account does not know waits for the second factor. */
    signInNeedsSecondFactor: (user: { id: string; email: string }) => signInNeedsSecondFactor(useCases, user),
    devices,
    sendLoginOtp: (email: string, meta: { ip?: string } = {}) => sendLoginOtp(useCases, email, meta),
    otpCooldown: (email: string) => otp.cooldownSeconds('login', email.toLowerCase()),
    verifyLoginOtp: (input: Parameters<typeof verifyLoginOtp>[1], meta: Parameters<typeof verifyLoginOtp>[2]) =>
      verifyLoginOtp(useCases, input, meta),
    refreshSession: (refreshToken: string) => refreshSession(useCases, refreshToken),
    signOut: (sessionId: string | null, userId: string) => signOut(deps, sessionId, userId),
    /** This instance's own commit changed a user's sessions or account: drop the cached state now (session-cache.ts). */
    forgetUser: (userId: string) => sessionCache.forgetUser(userId),
    /** OPERATOR_IDLE_MINUTES: the console signs itself out after this long without the person's input (issue 41). */
    operatorIdleMinutes: operatorIdle.idleMinutes,
    /** Whether a session's state is held in memory now (tests and diagnostics). */
    isSessionCached: (sessionId: string) => sessionCache.get(sessionId) !== null,
    /** `pendingSignIn`: the operation runs on a session still waiting for its second factor (completeSignIn, signOut). */
    authenticate: (token: string, activity: Activity = 'person', pendingSignIn = false) =>
      authenticate(useCases, token, activity, pendingSignIn),
    /** An API key holder's account (issue 45), cached like a session's state (session-cache.ts). */
    keyHolder: (userId: string) => keyHolder(useCases, userId),
    liveOperatorRoles: (userId: string, sessionId: string | null) => liveOperatorRoles(useCases, userId, sessionId),
    updateProfile: (userId: string, patch: Parameters<typeof updateProfile>[2]) => updateProfile(deps, userId, patch),
  };
}
