import type { Logger } from '../../lib/logger.js';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Db } from '../../db/client.js';
import { codeText } from '../../kernel/code-texts.js';
import { AppError } from '../../kernel/errors.js';
import { codeTextsFor } from '../notifications/api.js';
import type { AuthUser } from '../../kernel/actor.js';
import { HOUR, type Clock } from '../../kernel/clock.js';
import { hmac } from '../../lib/crypto.js';
import { townOf } from '../../lib/town.js';
import { clientKeyOf, deviceName, UA_VERSION_PATTERN } from '../../lib/user-agent.js';
import { uuid } from '../../kernel/ids.js';
import type { SmsSender } from '../../providers/messaging.js';
import type { Work } from '../../platform/change.js';
import type { IdentityService } from '../identity/api.js';
import type { OtpService } from '../identity/api.js';
import type { PinService } from '../identity/api.js';
import type { AttemptLimits } from '../identity/api.js';
import { hasOtherVerifiedPhone, hasVerifiedPhone, setPhone } from '../identity/api.js';
import type { CredentialNotices } from './credential-notices.js';
import type { FirstCredential } from './first-credential.js';
import { loginIdentifierText } from './inputs.js';
import { createLoginFailures } from './login-failures.js';
import { createPinLogin, ipKey, ipLimit, type LoginIdentifier, type Meta } from './pin-login.js';

/**
 * Sign-in routes other than the e-mail code (spec 4.2): phone OTP, PIN login (pin-login.ts), login events and
 * reported failures (login-failures.ts). Failures feed three things: the PIN lockout, a per IP + identifier throttle
 * on PIN login, and an e-mail alert to the account owner. None of them can lock a victim out of the e-mail code. The
 * PIN lockout is device-aware (issue #28): a known device of the account (identity's devices) has its own budget;
 * every other source shares one.
 */
export { ALERT_THRESHOLD, FAILURE_WINDOW_MS, LOGIN_FAILURE_ALERT_JOB } from './login-failures.js';
export { IP_IDENTIFIER_MAX_FAILURES, type LoginIdentifier } from './pin-login.js';

export const loginIdentifierInput = loginIdentifierText.transform((v, ctx): LoginIdentifier => {
  if (/^@?[a-z0-9_]{3,20}$/.test(v)) return { type: 'username', value: v.replace(/^@/, '') };
  if (z.string().email().safeParse(v).success) return { type: 'email', value: v };
  ctx.addIssue({ code: 'custom', message: 'identifier must be an @username or an e-mail address' });
  return z.NEVER;
});

export interface LoginDeps {
  db: Db;
  clock: Clock;
  pepper: string;
  otp: OtpService;
  pins: PinService;
  identity: IdentityService;
  sms: SmsSender;
  log?: Logger;
  work: Work;
  attempts: AttemptLimits;
  notices: CredentialNotices;
  reauth: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  firstCredential: FirstCredential;
}

export type LoginService = ReturnType<typeof createLoginService>;

export function createLoginService(deps: LoginDeps) {
  const { pepper, attempts } = deps;
  const identifierHash = (id: LoginIdentifier) => hmac(pepper, `login-id:${id.type}:${id.value}`);
  const failures = createLoginFailures(deps);

  return {
    identifierHash,
    ...createPhoneVerification(deps),
    ...createPinLogin({ ...deps, failures, identifierHash }),
    notifyLogin: createLoginNotice(deps),

    /**
     * POST /api/public/login-failed: a client reports a failed sign-in (no token). The request does the same work
     * whether or not an account sits behind the identifier (one change records the failure, with the account
     * looked up inside its statement, and enqueues the alert check; then the address's count), so neither the answer
     * nor its time tells which identifiers exist. Whether to alert the owner is decided afterwards, by the job.
     */
    async reportLoginFailure(input: { identifier: LoginIdentifier; method?: string; reason?: string }, meta: Meta) {
      const idHash = identifierHash(input.identifier);
      const id = input.identifier;
      const account =
        id.type === 'email'
          ? sql`(SELECT id FROM users WHERE email = ${id.value} AND status = 'active')`
          : sql`(SELECT id FROM users WHERE username = ${id.value} AND status = 'active')`;
      await failures.recordReported({
        account,
        idHash,
        ...meta,
        method: input.method ?? 'unknown',
        reason: input.reason ?? 'reported',
      });
      // A reported failure counts toward the address's PIN-login pause for this identifier, as an observed one does.
      if (meta.ip) {
        const key = ipKey(idHash, meta.ip);
        const r = await attempts.reserve(key, ipLimit);
        if (r.ok) await attempts.fail(key, r.tries, ipLimit);
      }
    },

    alertAfterReport: failures.alertAfterReport,
  };
}

/** Phone verification: the code by SMS, its check, and the number attached to the caller's profile. */
function createPhoneVerification(deps: LoginDeps) {
  const { db, clock, otp, sms, log, notices, reauth } = deps;
  return {
    /** In the saved language of the signed-in caller, else of the number's owner; English for a number with none. */
    async sendPhoneOtp(phone: string, meta: Meta & { userId?: string } = {}) {
      const code = await otp.issue('phone', phone, meta.ip);
      const texts = await codeTextsFor(db, meta.userId ? { userId: meta.userId } : { phone });
      try {
        await sms.send({ to: phone, text: codeText(texts.phoneCode, { code }) });
      } catch (err) {
        log?.warn({ err: (err as Error).message }, 'phone verification SMS could not be sent');
        throw new AppError('UPSTREAM_ERROR', 'The SMS could not be sent just now; try again in a minute');
      }
      return { sent: true, expiresInSeconds: 600 };
    },

    /**
     * Verifies possession of the number. With a bearer token the number becomes the caller's verified phone
     * (and stops being the verified phone of anyone else: numbers are recycled).
     */
    async verifyPhoneOtp(phone: string, code: string, user: AuthUser | null, meta: Meta & { grantToken?: string } = {}) {
      // Replacing a verified phone is a credential change: a recent proof first, before the code is spent.
      const replaces = user ? await hasOtherVerifiedPhone(db, user.id, phone) : false;
      if (user && replaces) await reauth.require(user, meta.grantToken);
      await otp.verify('phone', phone, code, { ip: meta.ip });
      const now = clock.now();
      await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO phone_verifications (phone, user_id, verified_at) VALUES (${phone}, ${user?.id ?? null}, ${now})`);
        if (!user) return;
        await setPhone(tx, user.id, phone, now);
        if (replaces) await notices.notify(tx, user.id, 'phone_changed');
      });
      return { verified: true, attachedToProfile: Boolean(user) };
    },

    async isPhoneVerified(userId: string, phone: string) {
      return { verified: await hasVerifiedPhone(db, userId, phone) };
    },
  };
}

/**
 * spec 6.6: records the login (once per session) and, only for a device that has not signed in to the account before
 * (issue 43: the same browser on the same device, version numbers aside, is known), alerts the owner (inbox + e-mail)
 * in words people use: the browser, the system and the town the address is in (lib/town.ts; none for a private or
 * unknown address), never the User-Agent, the method or the address.
 */
function createLoginNotice({ db, clock, work }: LoginDeps) {
  return async (user: AuthUser, input: { device?: string; method?: string; sessionId?: string }, meta: Meta) => {
    const sessionId = input.sessionId ?? user.sessionId;
    if (input.sessionId && input.sessionId !== user.sessionId) {
      const own = await one(db, sql`SELECT 1 FROM sessions WHERE id = ${input.sessionId} AND user_id = ${user.id}`);
      if (!own) throw new AppError('NOT_FOUND', 'Session not found');
    }
    const now = clock.now();
    const method =
      input.method ??
      (sessionId ? (await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${sessionId}`))?.method : undefined);
    const userAgent = meta.userAgent ?? input.device ?? null;
    const parsed = deviceName(userAgent);
    const { browser, os } = parsed.browser || parsed.os ? parsed : deviceName(input.device);
    // A name the client gave its device ("Pixel 8"), when no User-Agent says more; never a User-Agent itself.
    const named = !browser && !os && input.device && !input.device.includes('/') ? input.device.slice(0, 60) : null;
    // Read from local files, never an error; started before the transaction so that none is held open over it.
    const town = townOf(meta.ip);
    return db.transaction(async (tx) => {
      const seen = await one(
        tx,
        sql`SELECT 1 FROM login_events WHERE user_id = ${user.id} AND kind = 'login'
              AND regexp_replace(COALESCE(user_agent, device, ''), ${UA_VERSION_PATTERN}, '', 'g') = ${clientKeyOf(userAgent)} LIMIT 1`,
      );
      const ins = await one(
        tx,
        sql`INSERT INTO login_events (id, user_id, kind, source, method, device, session_id, ip, user_agent, created_at)
            VALUES (${uuid()}, ${user.id}, 'login', 'client', ${method ?? null}, ${input.device ?? null}, ${sessionId ?? null},
                    ${meta.ip ?? null}, ${userAgent}, ${now})
            ON CONFLICT (session_id) WHERE kind = 'login' DO NOTHING RETURNING 1`,
      );
      if (!ins) return { recorded: false, alerted: false };
      if (seen) return { recorded: true, alerted: false };
      const lagos = new Date(now.getTime() + HOUR).toISOString().replace('T', ' ').slice(0, 16);
      const near = await town;
      const device = (named ?? `${browser ?? 'a browser'} on ${os ?? 'an unknown device'}`) + (near ? ` near ${near}` : '');
      const body = `New sign-in on ${device}, ${lagos} (Lagos time). If this was not you, sign in and change your PINs, and contact support.`;
      // login_alert is always e-mailed by the notifications module's outbox, from a job. The facts the notice is
      // worded from in the owner's language (issue 29) travel in its data.
      const data = { event: 'new_sign_in', browser: browser ?? '', os: os ?? '', when: lagos, ...(near ? { town: near } : {}) };
      await work.change(tx).notify({ userId: user.id, kind: 'login_alert', title: 'New sign-in to your account', body, data }).commit();
      return { recorded: true, alerted: true };
    });
  };
}
