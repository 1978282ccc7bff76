import { sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import type { AuthUser } from '../../http/registry.js';
import { MINUTE, type Clock } from '../../lib/clock.js';
import { decrypt, encrypt, randomToken, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../lib/ids.js';
import type { Mailer } from '../../providers/messaging.js';
import type { OtpService } from '../identity/otp.js';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.js';

/** DESIGN §5: grants live 10 minutes, bound to user and session; wrong codes are limited like PINs. */
export const GRANT_TTL_MS = 10 * MINUTE;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_LOCK_MS = 15 * MINUTE;

interface FactorRow {
  secret_enc: string;
  confirmed_at: Date | null;
  last_step: string | null;
  failed_attempts: number;
  lock_count: number;
  locked_until: Date | null;
}

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  otp: OtpService;
  mailer: Mailer;
  encryptionKey: string;
  issuer: string;
  identity: { forgetUser(userId: string): void };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export function createTwoFactorService(deps: TwoFactorDeps) {
  const { db, clock, otp, mailer, encryptionKey, issuer } = deps;

  const factorOf = (userId: string) =>
    one<FactorRow>(
      db,
      sql`SELECT secret_enc, confirmed_at, last_step::text AS last_step, failed_attempts, lock_count, locked_until
          FROM totp_factors WHERE user_id = ${userId}`,
    );

  async function isEnrolled(userId: string): Promise<boolean> {
    const f = await factorOf(userId);
    return Boolean(f?.confirmed_at);
  }

  /** A grant is valid for the user and the session it was issued to, until it expires or is revoked. */
  async function grantValid(user: AuthUser, grantToken: string | undefined): Promise<boolean> {
    if (!grantToken || grantToken.length > 200) return false;
    const g = await one<{ user_id: string; session_id: string | null; expires_at: Date; revoked_at: Date | null }>(
      db,
      sql`SELECT user_id, session_id, expires_at, revoked_at FROM stepup_grants WHERE token_hash = ${sha256(grantToken)}`,
    );
    if (!g || g.user_id !== user.id || g.revoked_at) return false;
    if ((g.session_id ?? null) !== (user.sessionId ?? null)) return false;
    return new Date(g.expires_at).getTime() > clock.now().getTime();
  }

  function assertNotLocked(f: FactorRow) {
    const now = clock.now().getTime();
    if (f.locked_until && new Date(f.locked_until).getTime() > now) {
      const s = Math.ceil((new Date(f.locked_until).getTime() - now) / 1000);
      throw new AppError('RATE_LIMITED', `Too many wrong codes; try again in ${Math.ceil(s / 60)} minutes`, { retryAfter: s });
    }
  }

  /** Counts a wrong code; the fifth locks code checks for 15 minutes, doubling on each repeat (as PINs). */
  async function countFailure(userId: string): Promise<void> {
    const r = await one<{ failed_attempts: number; lock_count: number }>(
      db,
      sql`UPDATE totp_factors SET failed_attempts = failed_attempts + 1 WHERE user_id = ${userId} RETURNING failed_attempts, lock_count`,
    );
    if (r && r.failed_attempts >= CODE_MAX_ATTEMPTS) {
      const lockMs = CODE_LOCK_MS * 2 ** r.lock_count;
      await db.execute(sql`UPDATE totp_factors SET failed_attempts = 0, lock_count = lock_count + 1,
                           locked_until = ${new Date(clock.now().getTime() + lockMs)} WHERE user_id = ${userId}`);
      throw new AppError('RATE_LIMITED', `Too many wrong codes; try again in ${lockMs / MINUTE} minutes`, { retryAfter: lockMs / 1000 });
    }
  }

  /**
   * Accepts the code once: the step must be newer than the last accepted step, and the conditional UPDATE
   * makes two concurrent uses of one code fail except for one (replay within the window refused).
   */
  async function acceptTotp(userId: string, f: FactorRow, code: string, confirm: boolean): Promise<'ok' | 'replay' | 'wrong'> {
    const step = matchTotpStep(decrypt(encryptionKey, f.secret_enc), code, clock.now().getTime());
    if (step === null) return 'wrong';
    const now = clock.now();
    const done = await one(
      db,
      sql`UPDATE totp_factors SET last_step = ${step}, failed_attempts = 0, updated_at = ${now}
            ${confirm ? sql`, confirmed_at = ${now}` : sql``}
          WHERE user_id = ${userId} AND (last_step IS NULL OR last_step < ${step})
            ${confirm ? sql`AND confirmed_at IS NULL` : sql`AND confirmed_at IS NOT NULL`}
          RETURNING 1`,
    );
    // The step-up gate reads "enrolled" from the cached session state: this instance forgets it at once.
    if (done && confirm) deps.identity.forgetUser(userId);
    // A replay is refused but is not a guess: it does not count toward the lock.
    return done ? 'ok' : 'replay';
  }

  /**
   * DESIGN §5: e-mail is never the only factor while TOTP is on. An e-mailed step-up code therefore confirms
   * only a session opened with the login PIN; a session opened with an e-mailed login code needs the app code.
   */
  async function emailStepUpAllowed(user: AuthUser, f: FactorRow | undefined): Promise<boolean> {
    if (!f?.confirmed_at) return true;
    if (!user.sessionId) return false;
    const s = await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${user.sessionId}`);
    return s?.method === 'pin';
  }

  return {
    isEnrolled,
    grantValid,

    async state(user: AuthUser, grantToken: string | undefined) {
      const f = await factorOf(user.id);
      return { enrolled: Boolean(f), confirmed: Boolean(f?.confirmed_at), grantValid: await grantValid(user, grantToken) };
    },

    /** A new pending secret replaces an unconfirmed one; a confirmed factor is never silently replaced. */
    async beginEnrollment(user: AuthUser) {
      const existing = await factorOf(user.id);
      if (existing?.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      const secret = newTotpSecret();
      const now = clock.now();
      const stored = await one(
        db,
        sql`INSERT INTO totp_factors (user_id, secret_enc, created_at, updated_at)
            VALUES (${user.id}, ${encrypt(encryptionKey, secret)}, ${now}, ${now})
            ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, last_step = NULL,
              updated_at = EXCLUDED.updated_at
            WHERE totp_factors.confirmed_at IS NULL
            RETURNING 1`,
      );
      // Confirmed in another request meanwhile: never hand out a secret that was not stored.
      if (!stored) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      const uri = totpUri(secret, user.email, issuer);
      return { uri, secret, qrDataUrl: await QRCode.toDataURL(uri) };
    },

    async confirmEnrollment(user: AuthUser, code: string) {
      const f = await factorOf(user.id);
      if (!f) throw new AppError('CONFLICT', 'Start enrollment first (beginTotpEnrollment)');
      if (f.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      assertNotLocked(f);
      const r = await acceptTotp(user.id, f, code, true);
      if (r !== 'ok') {
        if (r === 'wrong') await countFailure(user.id);
        throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      }
      return { enrolled: true, confirmed: true };
    },

    async sendEmailCode(user: AuthUser) {
      if (!(await emailStepUpAllowed(user, await factorOf(user.id)))) {
        throw new AppError('CONFLICT', 'Use the code from your authenticator app: this session was opened with an e-mailed code, so an e-mailed code cannot confirm it');
      }
      const code = await otp.issue('stepup', user.email);
      await mailer.send({
        to: user.email,
        subject: 'Your security confirmation code',
        text: `Your confirmation code is ${code}. It expires in 10 minutes. If you did not ask for it, secure your account now.`,
      });
      return { sent: true, expiresInSeconds: 600 };
    },

    /** spec 4.3: the input is a TOTP code or an e-mailed step-up code (within emailStepUpAllowed); either yields a grant. */
    async verifyChallenge(user: AuthUser, code: string) {
      const f = await factorOf(user.id);
      if (f) assertNotLocked(f);
      let method: 'totp' | 'email' | null = null;
      const totp = f?.confirmed_at ? await acceptTotp(user.id, f, code, false) : 'wrong';
      if (totp === 'ok') method = 'totp';
      if (totp === 'replay') throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      if (!method && !(await emailStepUpAllowed(user, f))) {
        await countFailure(user.id);
        throw new AppError('OTP_INVALID', 'The authenticator code is wrong or has already been used (this session needs the app code, not an e-mailed one)');
      }
      if (!method) {
        try {
          await otp.verify('stepup', user.email, code);
          method = 'email';
        } catch (err) {
          if (f?.confirmed_at) await countFailure(user.id);
          // An expired e-mail code says so; anything else is simply a wrong code.
          if (err instanceof AppError && err.code === 'OTP_EXPIRED' && !f?.confirmed_at) throw err;
          throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
        }
      }
      const token = `grt_${randomToken(32)}`;
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + GRANT_TTL_MS);
      await db.execute(sql`INSERT INTO stepup_grants (id, token_hash, user_id, session_id, method, created_at, expires_at)
                           VALUES (${uuid()}, ${sha256(token)}, ${user.id}, ${user.sessionId}, ${method}, ${now}, ${expiresAt})`);
      return { grantToken: token, expiresAt: expiresAt.toISOString() };
    },

    async revokeGrant(user: AuthUser, grantToken: string) {
      const g = await one<{ revoked_at: Date | null }>(
        db,
        sql`SELECT revoked_at FROM stepup_grants WHERE token_hash = ${sha256(grantToken)} AND user_id = ${user.id}`,
      );
      if (!g) throw new AppError('NOT_FOUND', 'Grant not found');
      if (!g.revoked_at) await db.execute(sql`UPDATE stepup_grants SET revoked_at = ${clock.now()} WHERE token_hash = ${sha256(grantToken)} AND revoked_at IS NULL`);
      return { revoked: true };
    },

    /** The registry's gates.stepUp (DESIGN §5): required only while TOTP is enrolled and confirmed. */
    stepUp: {
      async require(user: AuthUser, grantToken: string | undefined): Promise<void> {
        if (!(user.twoFactor ?? (await isEnrolled(user.id)))) return;
        if (!(await grantValid(user, grantToken))) {
          throw new AppError('STEP_UP_REQUIRED', 'Two-factor confirmation required: call verifyStepupChallenge and send its grantToken in X-Grant-Token');
        }
      },
    },
  };
}
