import type { users } from './schema.js';
import type { RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { isUniqueViolation, one, rows, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { OPERATOR_ROLES, type AuthUser, type OperatorRole } from '../../kernel/actor.js';
import type { Config } from '../../config.js';
import { DAY, MINUTE, type Clock } from '../../kernel/clock.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import type { Mailer } from '../../providers/messaging.js';
import { OTP_TTL_MS, type OtpService } from './otp.js';
import { createCodeMail } from './code-mail.js';
import { createOperatorIdle, type Activity } from './operator-idle.js';
import type { Outbox } from '../notifications/api.js';
import type { DeviceService } from './devices.js';
import type { SessionCache } from './session-cache.js';
import type { TokenService } from './tokens.js';

export interface SessionView {
  accessToken: string;
  refreshToken: string;
  tokenType: 'bearer';
  expiresIn: number;
  expiresAt: string;
  user: { id: string; email: string; username: string | null };
}

export type UserRow = Pick<
  RowOf<typeof users>,
  'id' | 'email' | 'username' | 'full_name' | 'phone' | 'phone_verified_at' | 'status' | 'kyc_tier' | 'created_at'
>;

export const SESSION_TTL_MS = 30 * DAY;

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  config: Config;
  tokens: TokenService;
  otp: OtpService;
  /** Known devices: their own attempt budgets (devices.ts). */
  devices: DeviceService;
  mailer: Mailer;
  /** Where a code goes when the mail server refuses it (code-mail.ts). */
  outbox: Outbox;
  /** Session state kept between requests, invalidated by the auth_changed feed (session-cache.ts). */
  sessionCache: SessionCache;
  /** Called in the sign-up transaction with the referral code given at first login (growth module). */
  onSignup?: (tx: Executor, userId: string, referralCode: string | undefined) => Promise<void>;
}

export type IdentityService = ReturnType<typeof createIdentityService>;

export function createIdentityService(deps: IdentityDeps) {
  const { db, clock, config, tokens, otp, devices, mailer, sessionCache } = deps;

  const codeMail = createCodeMail({ mailer, outbox: deps.outbox, db, clock });
  const operatorIdle = createOperatorIdle({ db, clock, idleMinutes: config.operators.idleMinutes, forgetUser: sessionCache.forgetUser });

  const roleOf = (email: string): 'user' | 'admin' => (config.adminEmails.includes(email.toLowerCase()) ? 'admin' : 'user');
  /** The roles an account holds: its granted rows, and admin for the ADMIN_EMAILS accounts (the first admin). */
  const operatorRolesOf = (email: string, granted: readonly string[]): OperatorRole[] => {
    const roles = new Set(OPERATOR_ROLES.filter((r) => granted.includes(r)));
    if (roleOf(email) === 'admin') roles.add('admin');
    return OPERATOR_ROLES.filter((r) => roles.has(r));
  };
  const grantedRolesOf = async (userId: string) =>
    (await rows<{ role: string }>(db, sql`SELECT role FROM operator_roles WHERE user_id = ${userId}`)).map((r) => r.role);

  async function findUserByEmail(exec: Executor, email: string) {
    return one<UserRow>(exec, sql`SELECT * FROM users WHERE email = ${email.toLowerCase()}`);
  }

  async function getUser(exec: Executor, id: string) {
    return one<UserRow>(exec, sql`SELECT * FROM users WHERE id = ${id}`);
  }

  async function createUser(exec: Executor, email: string): Promise<UserRow> {
    const now = clock.now();
    const id = uuid();
    await exec.execute(sql`INSERT INTO users (id, email, created_at, updated_at) VALUES (${id}, ${email.toLowerCase()}, ${now}, ${now})
                           ON CONFLICT (email) DO NOTHING`);
    return (await findUserByEmail(exec, email))!;
  }

  /** Opens a session and returns the session object of docs/design.md §5. */
  async function openSession(
    user: { id: string; email: string; username: string | null },
    method: string,
    meta: { ip?: string; userAgent?: string } = {},
  ): Promise<SessionView> {
    const now = clock.now();
    const sessionId = uuid();
    const refresh = randomToken(32);
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO sessions (id, user_id, status, method, user_agent, ip, created_at, expires_at)
                           VALUES (${sessionId}, ${user.id}, 'active', ${method}, ${meta.userAgent ?? null}, ${meta.ip ?? null}, ${now}, ${new Date(now.getTime() + SESSION_TTL_MS)})`);
      await tx.execute(sql`INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
                           VALUES (${sha256(refresh)}, ${sessionId}, ${now}, ${new Date(now.getTime() + config.auth.refreshTtlSeconds * 1000)})`);
    });
    const access = await tokens.issueAccess(user.id, sessionId);
    return {
      accessToken: access.token,
      refreshToken: refresh,
      tokenType: 'bearer',
      expiresIn: access.expiresIn,
      expiresAt: access.expiresAt.toISOString(),
      user: { id: user.id, email: user.email, username: user.username },
    };
  }

  return {
    roleOf,
    getUser,
    findUserByEmail,
    /** The account of an e-mail, made when there is none: a test key's shadow account in the test world (issue 45). */
    ensureUser: async (email: string) => (await findUserByEmail(db, email)) ?? createUser(db, email),
    openSession,
    devices,

    async sendLoginOtp(email: string, meta: { ip?: string } = {}) {
      const code = await otp.issue('login', email.toLowerCase(), meta.ip);
      await codeMail.send(
        {
          to: email,
          subject: 'Your sign-in code',
          text: `Your sign-in code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this e-mail.`,
        },
        new Date(clock.now().getTime() + OTP_TTL_MS),
      );
    },

    otpCooldown: (email: string) => otp.cooldownSeconds('login', email.toLowerCase()),

    /**
     * Opens a session for the code's owner. `deviceTokens`: the caller's device cookie; a known device of the account
     * guesses on its own budget (otp.ts). Returns the tokens the device cookie holds from now on.
     */
    async verifyLoginOtp(
      input: { email: string; code: string; referralCode?: string },
      meta: { ip?: string; userAgent?: string; deviceTokens?: readonly string[] },
    ): Promise<{ session: SessionView; deviceTokens: string[] }> {
      const email = input.email.toLowerCase();
      const known = await findUserByEmail(db, email);
      const device = known && meta.deviceTokens?.length ? await devices.recognise(known.id, meta) : null;
      await otp.verify('login', email, input.code, { ip: meta.ip, device });
      let user = known;
      if (user && user.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
      if (!user) {
        user = await db.transaction(async (tx) => {
          const created = await createUser(tx, email);
          if (input.referralCode) {
            await tx.execute(sql`UPDATE users SET signup_referral_code = ${input.referralCode} WHERE id = ${created.id}`);
          }
          if (deps.onSignup) await deps.onSignup(tx, created.id, input.referralCode);
          return created;
        });
      }
      const session = await openSession(user, 'email_otp', meta);
      return { session, deviceTokens: await devices.remember(user.id, meta) };
    },

    async refreshSession(refreshToken: string) {
      const now = clock.now();
      const hash = sha256(refreshToken);
      const row = await one<{
        session_id: string;
        used_at: Date | null;
        expires_at: Date;
        status: string;
        user_id: string;
        session_expires_at: Date;
      }>(
        db,
        sql`SELECT r.session_id, r.used_at, r.expires_at, s.status, s.user_id, s.expires_at AS session_expires_at FROM refresh_tokens r
            JOIN sessions s ON s.id = r.session_id WHERE r.token_hash = ${hash}`,
      );
      if (!row) throw new AppError('UNAUTHENTICATED', 'Refresh token is not valid');
      if (row.status === 'superseded') throw new AppError('SESSION_SUPERSEDED', 'This session was ended by a sign-in on another device');
      if (row.status !== 'active') throw new AppError('UNAUTHENTICATED', 'This session has ended; sign in again');
      // Rotation: a refresh token works once. Reuse of a spent one means it leaked: end the whole family.
      const spent = await one(
        db,
        sql`UPDATE refresh_tokens SET used_at = ${now} WHERE token_hash = ${hash} AND used_at IS NULL RETURNING 1`,
      );
      if (!spent) {
        await db.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'refresh_reuse' WHERE id = ${row.session_id}`);
        sessionCache.forgetUser(row.user_id);
        throw new AppError('UNAUTHENTICATED', 'Refresh token was already used; the session has been ended for safety');
      }
      if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AppError('UNAUTHENTICATED', 'Refresh token has expired');
      // A session lives SESSION_TTL_MS from sign-in, however often it is refreshed; the new refresh token
      // never outlives it.
      const sessionEnds = new Date(row.session_expires_at);
      if (sessionEnds.getTime() <= now.getTime()) throw new AppError('UNAUTHENTICATED', 'The session has expired; sign in again');
      const user = (await getUser(db, row.user_id))!;
      if (user.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
      // An operator's idle session ends here too, but a refresh is the app's own timer, not a person (operator-idle.ts).
      if (operatorRolesOf(user.email, await grantedRolesOf(user.id)).length)
        await operatorIdle.check(row.session_id, user.id, 'background');
      const refresh = randomToken(32);
      await db.execute(sql`INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
                           VALUES (${sha256(refresh)}, ${row.session_id}, ${now},
                                   ${new Date(Math.min(now.getTime() + config.auth.refreshTtlSeconds * 1000, sessionEnds.getTime()))})`);
      const access = await tokens.issueAccess(user.id, row.session_id);
      return {
        accessToken: access.token,
        refreshToken: refresh,
        tokenType: 'bearer' as const,
        expiresIn: access.expiresIn,
        expiresAt: access.expiresAt.toISOString(),
        user: { id: user.id, email: user.email, username: user.username },
      };
    },

    async signOut(sessionId: string | null, userId: string) {
      if (!sessionId) return;
      await db.execute(
        sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'sign_out' WHERE id = ${sessionId} AND status = 'active'`,
      );
      sessionCache.forgetUser(userId);
    },

    /** This instance's own commit changed a user's sessions or account: drop the cached state now (session-cache.ts). */
    forgetUser: (userId: string) => sessionCache.forgetUser(userId),
    /** OPERATOR_IDLE_MINUTES: the console signs itself out after this long without the person's input (issue 41). */
    operatorIdleMinutes: operatorIdle.idleMinutes,
    /** Whether a session's state is held in memory now (tests and diagnostics). */
    isSessionCached: (sessionId: string) => sessionCache.get(sessionId) !== null,

    /**
     * Bearer token -> caller. One query checks session state, account state and tier; an operator's session is also
     * checked for idleness, and a person's request moves its idle clock (operator-idle.ts).
     */
    async authenticate(token: string, activity: Activity = 'person'): Promise<AuthUser> {
      const claims = await tokens.verifyAccess(token);
      if (!claims) throw new AppError('UNAUTHENTICATED', 'Access token is missing, invalid or expired');
      if (claims.external) {
        let user = await findUserByEmail(db, claims.email!);
        if (!user) user = await createUser(db, claims.email!);
        if (user.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
        // An external token is an operator only when the operator chose so (AUTH_EXTERNAL_ADMIN).
        const operatorRoles = config.auth.externalAdmin ? operatorRolesOf(user.email, await grantedRolesOf(user.id)) : [];
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
      const sid = claims.sid;
      if (!sid) throw new AppError('UNAUTHENTICATED', 'Access token is missing, invalid or expired');
      let row = sessionCache.get(sid);
      if (!row || row.userId !== claims.sub) {
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
              FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${sid} AND s.user_id = ${claims.sub}`,
        );
        if (!r) throw new AppError('UNAUTHENTICATED', 'Session not found');
        row = {
          userId: claims.sub,
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
      }
      if (row.status === 'superseded') throw new AppError('SESSION_SUPERSEDED', 'This session was ended by a sign-in on another device');
      if (row.status !== 'active') throw new AppError('UNAUTHENTICATED', 'This session has ended; sign in again');
      if (row.userStatus !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
      const operatorRoles = operatorRolesOf(row.email, row.grantedRoles);
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
    },

    /**
     * An operator's roles as the database holds them now (issue 41), not as the session cache last saw them: for a
     * signed link used outside any request's token (an export's download). With a session (null: an external
     * token's), null once it has ended, expired or idled out; null too when the account is closed.
     */
    async liveOperatorRoles(userId: string, sessionId: string | null): Promise<OperatorRole[] | null> {
      const id = /^[0-9a-f-]{36}$/i;
      if (!id.test(userId) || (sessionId !== null && !id.test(sessionId))) return null;
      const now = clock.now();
      const idleCutoff = new Date(now.getTime() - operatorIdle.idleMinutes * MINUTE);
      const r = await one<{ email: string; granted_roles: string[] | null }>(
        db,
        sql`SELECT u.email, ARRAY(SELECT r.role FROM operator_roles r WHERE r.user_id = u.id) AS granted_roles
            FROM users u WHERE u.id = ${userId} AND u.status = 'active'
              AND (${sessionId}::uuid IS NULL OR EXISTS (
                SELECT 1 FROM sessions s WHERE s.id = ${sessionId}::uuid AND s.user_id = u.id AND s.status = 'active'
                  AND s.expires_at > ${now} AND COALESCE(s.last_seen_at, s.created_at) > ${idleCutoff}))`,
      );
      return r ? operatorRolesOf(r.email, r.granted_roles ?? []) : null;
    },

    async updateProfile(userId: string, patch: { username?: string; fullName?: string; phone?: string }) {
      const now = clock.now();
      const current = (await getUser(db, userId))!;
      if (patch.username !== undefined && patch.username !== current.username) {
        const taken = await one(db, sql`SELECT 1 FROM users WHERE username = ${patch.username} AND id <> ${userId}`);
        if (taken) throw new AppError('USERNAME_TAKEN', 'That username is taken');
      }
      const phoneChanged = patch.phone !== undefined && patch.phone !== current.phone;
      try {
        await db.execute(sql`UPDATE users SET
            username = ${patch.username ?? current.username},
            full_name = ${patch.fullName ?? current.full_name},
            phone = ${patch.phone ?? current.phone},
            phone_verified_at = ${phoneChanged ? null : current.phone_verified_at},
            updated_at = ${now}
          WHERE id = ${userId}`);
      } catch (err) {
        // A concurrent update took the username between our check and the write: the unique index decides.
        if (isUniqueViolation(err, 'users_username_key')) {
          throw new AppError('USERNAME_TAKEN', 'That username is taken');
        }
        throw err;
      }
      if (patch.username !== undefined && patch.username !== current.username) sessionCache.forgetUser(userId);
      return (await getUser(db, userId))!;
    },
  };
}
