import type { totpFactors } from './schema.js';
import type { RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { HOUR, MINUTE, type Clock } from '../../kernel/clock.js';
import { decrypt, encrypt, sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import type { Mailer } from '../../providers/messaging.js';
import type { AttemptLimits, OtpService } from '../identity/api.js';
import { createCodeTries, type CodeSource } from './code-tries.js';
import type { CredentialNotices } from './credential-notices.js';
import type { Notifier } from '../notifications/api.js';
import { cancelNotMeRemoval, TWO_FACTOR_RESET_WAIT_MS, type RemovalOrigin } from './two-factor-removal.js';
import { matchTotpStep, newTotpSecret, totpUri } from './totp.js';
import { issueGrant, stepUpMethodsOf } from './step-up-methods.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PasskeyService } from './passkeys.js';

/** docs/design.md §5: grants live 10 minutes, bound to user and session; wrong codes are limited like PINs. */
export const GRANT_TTL_MS = 10 * MINUTE;
export { CODE_LOCK_MS, CODE_MAX_ATTEMPTS } from './code-tries.js';
export { TWO_FACTOR_RESET_WAIT_MS } from './two-factor-removal.js';

/** Wrong codes are budgeted in attempt_limits (code-tries.ts); the table's old lock columns are not read. */
type FactorRow = Pick<RowOf<typeof totpFactors>, 'secret_enc' | 'confirmed_at' | 'last_step'>;

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  otp: OtpService;
  mailer: Mailer;
  encryptionKey: string;
  issuer: string;
  identity: { forgetUser(userId: string): void };
  notices: CredentialNotices;
  notifier: Notifier;
  attempts: AttemptLimits;
  /** Known devices of an account (identity's devices): each has its own budget of code tries. */
  devices: { recognise(userId: string, from: CodeSource): Promise<string | null> };
  /** Operators' passkeys (passkeys.ts): a second factor like the authenticator. */
  passkeys: PasskeyService;
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export function createTwoFactorService(deps: TwoFactorDeps) {
  const { db, clock, otp, mailer, encryptionKey, issuer } = deps;
  const codeTries = createCodeTries(deps);

  /** The factor, after finishing a reset whose waiting period is over. */
  async function factorOf(userId: string): Promise<FactorRow | undefined> {
    const row = await one<FactorRow & { reset_due: boolean }>(
      db,
      sql`SELECT secret_enc, confirmed_at, last_step::text AS last_step,
                 EXISTS (SELECT 1 FROM two_factor_resets r WHERE r.user_id = f.user_id AND r.cancelled_at IS NULL
                           AND r.completed_at IS NULL AND r.effective_at <= ${clock.now()}) AS reset_due
          FROM totp_factors f WHERE user_id = ${userId}`,
    );
    if (!row?.reset_due) return row;
    await completeDueReset(userId);
    return undefined;
  }

  async function completeDueReset(userId: string) {
    const now = clock.now();
    const done = await db.transaction(async (tx) => {
      const r = await one<{ origin: RemovalOrigin }>(
        tx,
        sql`UPDATE two_factor_resets SET completed_at = ${now}
            WHERE user_id = ${userId} AND cancelled_at IS NULL AND completed_at IS NULL AND effective_at <= ${now} RETURNING origin`,
      );
      if (!r) return false;
      await tx.execute(sql`DELETE FROM totp_factors WHERE user_id = ${userId}`);
      const why = r.origin === 'not_me' ? 'removal that followed your "this wasn\'t me" report' : 'reset you asked for';
      const detail = `The waiting period of the ${why} is over; you can set up an authenticator again.`;
      await deps.notices.notify(tx, userId, 'totp_reset_done', detail, { everyChannel: r.origin === 'not_me' });
      return true;
    });
    if (done) deps.identity.forgetUser(userId);
  }

  async function isEnrolled(userId: string): Promise<boolean> {
    const f = await factorOf(userId);
    return Boolean(f?.confirmed_at);
  }

  /** An operator's passkey is a second factor (issue 30); a customer has none (registering one is an operator's operation). */
  const passkeyOn = async (user: AuthUser) => user.role === 'admin' && (await deps.passkeys.has(user.id));

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

  /**
   * Accepts the code once: the step must be newer than the last accepted step, and the conditional UPDATE
   * makes two concurrent uses of one code fail except for one (replay within the window refused).
   */
  async function acceptTotp(userId: string, f: FactorRow, code: string, confirm: boolean, key: string): Promise<'ok' | 'replay' | 'wrong'> {
    const step = matchTotpStep(decrypt(encryptionKey, f.secret_enc), code, clock.now().getTime());
    if (step === null) return 'wrong';
    const now = clock.now();
    const done = await one(
      db,
      sql`UPDATE totp_factors SET last_step = ${step}, updated_at = ${now}
            ${confirm ? sql`, confirmed_at = ${now}` : sql``}
          WHERE user_id = ${userId} AND (last_step IS NULL OR last_step < ${step})
            ${confirm ? sql`AND confirmed_at IS NULL` : sql`AND confirmed_at IS NOT NULL`}
          RETURNING 1`,
    );
    if (done) await codeTries.succeed(key);
    // The step-up gate reads "enrolled" from the cached session state: this instance forgets it at once.
    if (done && confirm) deps.identity.forgetUser(userId);
    // A replay is refused but is not a guess: it does not count toward the lock.
    return done ? 'ok' : 'replay';
  }

  /**
   * docs/design.md §5: e-mail is never the only factor while TOTP is on. An e-mailed step-up code therefore confirms
   * only a session opened with the login PIN; a session opened with an e-mailed login code needs the app code.
   */
  async function emailStepUpAllowed(user: AuthUser, f: FactorRow | undefined): Promise<boolean> {
    if (!f?.confirmed_at && !(await passkeyOn(user))) return true;
    if (!user.sessionId) return false;
    const s = await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${user.sessionId}`);
    return s?.method === 'pin';
  }

  return {
    isEnrolled,
    grantValid,

    async state(user: AuthUser, grantToken: string | undefined) {
      const f = await factorOf(user.id);
      const confirmed = Boolean(f?.confirmed_at);
      const stepUpMethods = await stepUpMethodsOf(db, user, confirmed, await passkeyOn(user));
      return { enrolled: Boolean(f), confirmed, grantValid: await grantValid(user, grantToken), stepUpMethods };
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
      return { uri, secret, qrDataUrl: await (await import('qrcode')).default.toDataURL(uri) };
    },

    async confirmEnrollment(user: AuthUser, code: string, meta: CodeSource = {}) {
      const f = await factorOf(user.id);
      if (!f) throw new AppError('CONFLICT', 'Start enrollment first (beginTotpEnrollment)');
      if (f.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is already set up');
      const key = codeTries.keyOf(user, (await codeTries.sourceOf(user, meta)).device);
      const tries = await codeTries.reserve(key);
      const r = await acceptTotp(user.id, f, code, true, key);
      if (r === 'wrong') await codeTries.fail(key, tries);
      if (r === 'replay') await codeTries.release(key);
      if (r !== 'ok') throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      await db.transaction((tx) => deps.notices.notify(tx, user.id, 'totp_enrolled'));
      return { enrolled: true, confirmed: true };
    },

    /**
     * Always sends: the e-mailed code confirms a credential change (verifyStepupChallenge) and asks for or cancels
     * a two-factor reset. While an authenticator is on, it yields a grant only in a session opened with the login
     * PIN (emailStepUpAllowed), so e-mail is never the only factor.
     */
    async sendEmailCode(user: AuthUser, meta: { ip?: string } = {}) {
      const code = await otp.issue('stepup', user.email, meta.ip);
      await mailer.send({
        to: user.email,
        subject: 'Your security confirmation code',
        text: `Your confirmation code is ${code}. It expires in 10 minutes. If you did not ask for it, secure your account now.`,
      });
      // Sent even where it confirms nothing here (it asks for a reset); the answer says what this session may use.
      return {
        sent: true,
        expiresInSeconds: 600,
        stepUpMethods: await stepUpMethodsOf(db, user, await isEnrolled(user.id), await passkeyOn(user)),
      };
    },

    /** spec 4.3: the input is a TOTP code or an e-mailed step-up code (within emailStepUpAllowed); either yields a grant. */
    async verifyChallenge(user: AuthUser, code: string, meta: CodeSource = {}) {
      const f = await factorOf(user.id);
      const from = await codeTries.sourceOf(user, meta);
      const key = codeTries.keyOf(user, from.device);
      let method: 'totp' | 'email';
      if (f?.confirmed_at) {
        const tries = await codeTries.reserve(key);
        const totp = await acceptTotp(user.id, f, code, false, key);
        if (totp === 'replay') {
          await codeTries.release(key);
          throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
        }
        if (totp === 'ok') {
          method = 'totp';
          // Proving the authenticator cancels a removal asked for through "this wasn't me" (issue 28).
          await cancelNotMeRemoval(db, deps.notifier, user.id, clock.now());
        } else if (!(await emailStepUpAllowed(user, f))) {
          await codeTries.fail(key, tries);
          throw new AppError(
            'OTP_INVALID',
            'The authenticator code is wrong or has already been used (this session needs the app code, not an e-mailed one)',
          );
        } else {
          try {
            await otp.verify('stepup', user.email, code, from);
          } catch {
            await codeTries.fail(key, tries);
            throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
          }
          await codeTries.release(key);
          method = 'email';
        }
      } else {
        // An operator's passkey is a second factor: an e-mailed code alone then confirms only a PIN session.
        if (!(await emailStepUpAllowed(user, f)))
          throw new AppError('OTP_INVALID', 'This session needs your passkey (method "passkey"), not an e-mailed code');
        await otp.verify('stepup', user.email, code, from);
        method = 'email';
      }
      return issueGrant(db, clock, user, method, GRANT_TTL_MS);
    },

    /** Step-up with an operator's passkey (issue 30): a verified assertion yields the same grant as an authenticator code. */
    async verifyPasskey(user: AuthUser, assertion: AuthenticationResponseJSON) {
      await deps.passkeys.verifyAssertion(user, assertion);
      return issueGrant(db, clock, user, 'passkey', GRANT_TTL_MS);
    },

    /** Turns the authenticator off (the registry's reauth gate asks for a grant first). */
    async disable(user: AuthUser) {
      const removed = await db.transaction(async (tx) => {
        const r = await one(tx, sql`DELETE FROM totp_factors WHERE user_id = ${user.id} RETURNING confirmed_at IS NOT NULL AS confirmed`);
        if (!r) return false;
        await tx.execute(
          sql`UPDATE two_factor_resets SET cancelled_at = ${clock.now()} WHERE user_id = ${user.id} AND cancelled_at IS NULL AND completed_at IS NULL`,
        );
        await deps.notices.notify(tx, user.id, 'totp_removed');
        return true;
      });
      if (removed) deps.identity.forgetUser(user.id);
      return { enrolled: false, confirmed: false };
    },

    /**
     * The owner's way back when the authenticator is lost (or was set up by someone else): an e-mailed code
     * (sendStepupEmailCode) asks for the reset, which takes effect TWO_FACTOR_RESET_WAIT_MS later unless cancelled;
     * the owner is told at once and again when it is done.
     */
    async requestReset(user: AuthUser, code: string, meta: CodeSource = {}) {
      const f = await factorOf(user.id);
      if (!f?.confirmed_at) throw new AppError('CONFLICT', 'Two-factor authentication is not set up; there is nothing to reset');
      await otp.verify('stepup', user.email, code, await codeTries.sourceOf(user, meta));
      const now = clock.now();
      const effectiveAt = new Date(now.getTime() + TWO_FACTOR_RESET_WAIT_MS);
      const row = await db.transaction(async (tx) => {
        const created = await one<{ effective_at: Date }>(
          tx,
          sql`INSERT INTO two_factor_resets (id, user_id, requested_at, effective_at) VALUES (${uuid()}, ${user.id}, ${now}, ${effectiveAt})
              ON CONFLICT (user_id) WHERE cancelled_at IS NULL AND completed_at IS NULL DO NOTHING RETURNING effective_at`,
        );
        if (!created) {
          return one<{ effective_at: Date }>(
            tx,
            sql`SELECT effective_at FROM two_factor_resets WHERE user_id = ${user.id} AND cancelled_at IS NULL AND completed_at IS NULL`,
          );
        }
        const when = new Date(effectiveAt.getTime() + HOUR).toISOString().replace('T', ' ').slice(0, 16);
        await deps.notices.notify(
          tx,
          user.id,
          'totp_reset_requested',
          `Two-factor authentication will be turned off on ${when} (Lagos time) unless the reset is cancelled with a code sent to this e-mail address.`,
          { params: { resetAt: when } },
        );
        return created;
      });
      return { resetAt: new Date(row!.effective_at).toISOString() };
    },

    /** Cancels a pending reset; needs an e-mailed code, like the request (the authenticator may be the intruder's). */
    async cancelReset(user: AuthUser, code: string, meta: CodeSource = {}) {
      await otp.verify('stepup', user.email, code, await codeTries.sourceOf(user, meta));
      const r = await one(
        db,
        sql`UPDATE two_factor_resets SET cancelled_at = ${clock.now()}
            WHERE user_id = ${user.id} AND cancelled_at IS NULL AND completed_at IS NULL RETURNING 1`,
      );
      if (!r) throw new AppError('NOT_FOUND', 'No two-factor reset is pending');
      return { cancelled: true };
    },

    /** The operator's reset (BearerAdmin), for an owner who lost the authenticator and proved who they are (the registry audits the call). */
    async adminReset(_admin: AuthUser, userId: string, _reason: string) {
      const now = clock.now();
      const removed = await db.transaction(async (tx) => {
        const r = await one(tx, sql`DELETE FROM totp_factors WHERE user_id = ${userId} RETURNING 1`);
        // An operator who lost their passkeys is recovered the same way (issue 30): all of them go too.
        const keys = await one(tx, sql`DELETE FROM operator_passkeys WHERE user_id = ${userId} RETURNING 1`);
        if (!r && !keys) return false;
        await tx.execute(
          sql`UPDATE two_factor_resets SET completed_at = ${now} WHERE user_id = ${userId} AND cancelled_at IS NULL AND completed_at IS NULL`,
        );
        await deps.notices.notify(tx, userId, 'totp_reset_done', 'An operator turned it off at your request.');
        return true;
      });
      if (!removed) throw new AppError('NOT_FOUND', 'That user has no two-factor authentication set up');
      deps.identity.forgetUser(userId);
      return { reset: true };
    },

    async revokeGrant(user: AuthUser, grantToken: string) {
      const g = await one<{ revoked_at: Date | null }>(
        db,
        sql`SELECT revoked_at FROM stepup_grants WHERE token_hash = ${sha256(grantToken)} AND user_id = ${user.id}`,
      );
      if (!g) throw new AppError('NOT_FOUND', 'Grant not found');
      if (!g.revoked_at)
        await db.execute(
          sql`UPDATE stepup_grants SET revoked_at = ${clock.now()} WHERE token_hash = ${sha256(grantToken)} AND revoked_at IS NULL`,
        );
      return { revoked: true };
    },

    /** The registry's gates.stepUp (docs/design.md §5): required only while TOTP is enrolled and confirmed. */
    stepUp: {
      async require(user: AuthUser, grantToken: string | undefined): Promise<void> {
        if (!(user.twoFactor ?? (await isEnrolled(user.id))) && !(await passkeyOn(user))) return;
        if (!(await grantValid(user, grantToken))) {
          throw new AppError(
            'STEP_UP_REQUIRED',
            'Two-factor confirmation required: call verifyStepupChallenge and send its grantToken in X-Grant-Token',
          );
        }
      },
    },

    /**
     * The registry's gates.reauth: credential changes need a recent proof beyond the access token,
     * whether or not 2FA is on: a grant from verifyStepupChallenge (authenticator code or e-mailed code).
     */
    reauth: {
      async require(user: AuthUser, grantToken: string | undefined): Promise<void> {
        if (!(await grantValid(user, grantToken))) {
          throw new AppError(
            'STEP_UP_REQUIRED',
            'Confirm it is you first: get a code (sendStepupEmailCode, or your authenticator app), call verifyStepupChallenge and send its grantToken in X-Grant-Token',
          );
        }
      },
    },
  };
}
