import type { Logger } from '../../lib/logger.js';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { DAY, HOUR, MINUTE, type Clock } from '../../kernel/clock.js';
import { hmac } from '../../lib/crypto.js';
import { addressKey } from '../../lib/address-key.js';
import { uuid } from '../../kernel/ids.js';
import type { SmsSender } from '../../providers/messaging.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { IdentityService, SessionView, UserRow } from '../identity/api.js';
import type { OtpService } from '../identity/api.js';
import { PIN_LOCK_MS, PIN_MAX_ATTEMPTS, pinLockedError, wrongPinError, type PinService } from '../identity/api.js';
import type { AttemptLimit, AttemptLimits } from '../identity/api.js';
import { hasOtherVerifiedPhone, hasVerifiedPhone, setPhone } from '../identity/api.js';
import type { CredentialNotices } from './credential-notices.js';
import { stepUpRequired, type FirstCredential } from './first-credential.js';
import { loginIdentifierText } from './inputs.js';
import type { Notifier } from '../notifications/api.js';

/**
 * Sign-in routes other than the e-mail code (spec 4.2): phone OTP, PIN login, login events and reported
 * failures. Failures feed three things: the PIN lockout, a per IP + identifier throttle on PIN login, and an e-mail
 * alert to the account owner. None of them can lock a victim out of the e-mail code. The PIN lockout is device-aware
 * (issue #28): a known device of the account (identity's devices) has its own budget; every other source shares one.
 */
export const FAILURE_WINDOW_MS = 15 * MINUTE;
/** Failures (reported or observed) from one IP for one identifier before PIN login from that IP pauses. */
export const IP_IDENTIFIER_MAX_FAILURES = 10;
/** Failures on one account within the window that trigger an alert e-mail (at most one an hour). */
export const ALERT_THRESHOLD = 5;

export type LoginIdentifier = { type: 'username' | 'email'; value: string };

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
  notifier: Notifier;
  attempts: AttemptLimits;
  notices: CredentialNotices;
  reauth: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  firstCredential: FirstCredential;
  jobs: JobQueue;
}

/** The job that checks, after a reported failure was answered, whether the account's owner should be alerted. */
export const LOGIN_FAILURE_ALERT_JOB = 'security.loginFailureAlert';

interface Meta {
  ip?: string;
  userAgent?: string;
}

export type LoginService = ReturnType<typeof createLoginService>;

export function createLoginService(deps: LoginDeps) {
  const { db, clock, pepper, otp, pins, identity, sms, log, notifier, attempts, notices, reauth, jobs } = deps;
  const identifierHash = (id: LoginIdentifier) => hmac(pepper, `login-id:${id.type}:${id.value}`);

  const findActive = (id: LoginIdentifier) =>
    one<UserRow>(
      db,
      id.type === 'email'
        ? sql`SELECT * FROM users WHERE email = ${id.value} AND status = 'active'`
        : sql`SELECT * FROM users WHERE username = ${id.value} AND status = 'active'`,
    );

  async function recordFailure(
    exec: Executor,
    f: {
      userId: string | null;
      idHash: string;
      ip?: string;
      userAgent?: string;
      method: string;
      reason: string;
      source: 'client' | 'server';
    },
  ) {
    await exec.execute(sql`INSERT INTO login_events (id, user_id, kind, source, method, ip, user_agent, identifier_hash, reason, created_at)
                           VALUES (${uuid()}, ${f.userId}, 'failure', ${f.source}, ${f.method}, ${f.ip ?? null}, ${f.userAgent ?? null},
                                   ${f.idHash}, ${f.reason}, ${clock.now()})`);
  }

  /**
   * At most one alert an hour, once an account has ALERT_THRESHOLD failures inside the window. The e-mail goes
   * out through the notifier (login_alert is always e-mailed, from a job, only if this transaction commits).
   */
  async function maybeAlert(userId: string) {
    const now = clock.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
      const n = await one<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM login_events WHERE user_id = ${userId} AND kind = 'failure'
            AND created_at > ${new Date(now.getTime() - FAILURE_WINDOW_MS)}`,
      );
      if ((n?.n ?? 0) < ALERT_THRESHOLD) return;
      const recent = await one(
        tx,
        sql`SELECT 1 FROM login_events WHERE user_id = ${userId} AND kind = 'failure_alert' AND created_at > ${new Date(now.getTime() - HOUR)}`,
      );
      if (recent) return;
      await tx.execute(
        sql`INSERT INTO login_events (id, user_id, kind, source, created_at) VALUES (${uuid()}, ${userId}, 'failure_alert', 'server', ${now})`,
      );
      const body = `There were ${n!.n} failed sign-in attempts on your account in the last 15 minutes. If this was not you, keep your PINs and codes private; you may change your login PIN in Settings.`;
      await notifier.emit(tx, {
        userId,
        kind: 'login_alert',
        title: 'Failed sign-in attempts on your account',
        body,
        data: { event: 'failures', failures: n!.n },
      });
    });
  }

  /** Per IP and identifier: failures from one address pause PIN login from there (reserved before the check). */
  const ipLimit: AttemptLimit = { max: IP_IDENTIFIER_MAX_FAILURES, lockMs: FAILURE_WINDOW_MS };
  const ipKey = (idHash: string, ip: string) => `pin-login-ip:${idHash}:${addressKey(ip)}`;
  /**
   * Login-PIN tries: per known device, and per account for all unrecognised sources together; 5, then 15 minutes,
   * doubling up to a day. An unknown identifier (or one without a login PIN) locks the same way, so it does not
   * reveal itself.
   */
  const pinLimit: AttemptLimit = { max: PIN_MAX_ATTEMPTS, lockMs: PIN_LOCK_MS, doubling: true, maxLockMs: DAY };
  const pinLocked = (s: number) => pinLockedError(s, clock.now());

  async function reserveFromHere(idHash: string, ip: string | undefined): Promise<{ key: string; tries: number } | null> {
    if (!ip) return null;
    const key = ipKey(idHash, ip);
    const r = await attempts.reserve(key, ipLimit);
    if (!r.ok) {
      const minutes = Math.ceil(r.retryAfter / 60);
      throw new AppError('RATE_LIMITED', `Too many failed sign-ins from here; retry in ${minutes} minutes or use an e-mail code`, {
        retryAfter: r.retryAfter,
      });
    }
    return { key, tries: r.tries };
  }

  async function failUnknown(idHash: string, meta: Meta): Promise<never> {
    const key = `pin-login-unknown:${idHash}`;
    const r = await attempts.reserve(key, pinLimit);
    if (!r.ok) throw pinLocked(r.retryAfter);
    await recordFailure(db, { userId: null, idHash, ...meta, method: 'pin', reason: 'invalid_credentials', source: 'server' });
    const locked = await attempts.fail(key, r.tries, pinLimit);
    if (locked) throw pinLocked(locked);
    throw wrongPinError('INVALID_CREDENTIALS', pinLimit.max - r.tries);
  }

  return {
    identifierHash,

    // ---- phone ----
    async sendPhoneOtp(phone: string, meta: Meta = {}) {
      const code = await otp.issue('phone', phone, meta.ip);
      try {
        await sms.send({ to: phone, text: `Your verification code is ${code}. It expires in 10 minutes. Do not share it.` });
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

    // ---- PIN login ----
    /**
     * Decision (docs/decisions.md): the answer depends on the identifier's form only, never on an account: PIN login
     * is offered for every well-formed identifier, and startPinLogin answers an unknown one exactly like a wrong PIN.
     * Nothing is looked up, so neither the answer nor its time tells whether an account exists or has a login PIN.
     */
    resolveLoginIdentifier(id: LoginIdentifier) {
      return { identifierType: id.type, pinLoginAvailable: true };
    },

    /**
     * Each try is reserved before anything is compared: a known device of the account (its device cookie) against
     * its own budget; any other source against the per-address pause and the budget all unrecognised sources share.
     * Parallel requests pass neither. Guesses from elsewhere never lock the owner's device out, and a locked login
     * PIN never blocks the e-mail code (docs/security.md, "Lock-out resistance"). Returns the session and the
     * tokens the device cookie holds from now on.
     */
    async startPinLogin(
      id: LoginIdentifier,
      pin: string,
      meta: Meta & { deviceTokens?: readonly string[] },
    ): Promise<{ session: SessionView; deviceTokens: string[] }> {
      const idHash = identifierHash(id);
      const user = await findActive(id);
      const device = user && meta.deviceTokens?.length ? await identity.devices.recognise(user.id, meta) : null;
      const here = device ? null : await reserveFromHere(idHash, meta.ip);
      try {
        if (!user || !(await pins.isSet(user.id, 'login'))) return await failUnknown(idHash, meta);
        const key = device ? `pin-login-device:${device}` : `pin-login-untrusted:${user.id}`;
        const failed = async (reason: string) => {
          await recordFailure(db, { userId: user.id, idHash, ...meta, method: 'pin', reason, source: 'server' });
          await maybeAlert(user.id);
        };
        const r = await attempts.reserve(key, pinLimit);
        if (!r.ok) {
          await failed('pin_locked');
          throw pinLocked(r.retryAfter);
        }
        if (await pins.matches(user.id, 'login', pin)) {
          await attempts.succeed(key);
        } else {
          await failed('invalid_credentials');
          const locked = await attempts.fail(key, r.tries, pinLimit);
          if (locked) throw pinLocked(locked);
          throw wrongPinError('INVALID_CREDENTIALS', pinLimit.max - r.tries);
        }
      } catch (err) {
        if (here) await attempts.fail(here.key, here.tries, ipLimit);
        throw err;
      }
      if (here) await attempts.succeed(here.key);
      const session = await identity.openSession(user, 'pin', meta);
      return { session, deviceTokens: await identity.devices.remember(user.id, meta) };
    },

    async loginPinStatus(userId: string) {
      return { enrolled: await pins.isSet(userId, 'login') };
    },

    /**
     * Needs a recent proof: a grant, or for a first login PIN a session opened by an e-mailed code minutes ago
     * (first-credential.ts); the owner is told, with a "this wasn't me" link.
     */
    async setLoginPin(user: AuthUser, pin: string, grantToken: string | undefined) {
      const had = await pins.isSet(user.id, 'login');
      if (had) await deps.reauth.require(user, grantToken);
      const proof = had ? 'grant' : await deps.firstCredential.require(user, grantToken);
      // A fresh sign-in only creates: a PIN set meanwhile (or one turned off earlier) is a change, which needs the grant.
      if (proof === 'freshSignIn') {
        if (!(await pins.setFirst(user.id, 'login', pin))) throw stepUpRequired();
      } else await pins.set(user.id, 'login', pin);
      await db.transaction((tx) => notices.notify(tx, user.id, had ? 'login_pin_changed' : 'login_pin_set'));
      return { enrolled: true };
    },

    async disableLoginPin(user: AuthUser) {
      const had = await pins.isSet(user.id, 'login');
      await pins.disable(user.id, 'login');
      if (had) await db.transaction((tx) => notices.notify(tx, user.id, 'login_pin_disabled'));
      return { enrolled: false };
    },

    // ---- login events ----
    /** spec 6.6: records the login and alerts the owner (inbox + e-mail), once per session. */
    async notifyLogin(user: AuthUser, input: { device?: string; method?: string; sessionId?: string }, meta: Meta) {
      const sessionId = input.sessionId ?? user.sessionId;
      if (input.sessionId && input.sessionId !== user.sessionId) {
        const own = await one(db, sql`SELECT 1 FROM sessions WHERE id = ${input.sessionId} AND user_id = ${user.id}`);
        if (!own) throw new AppError('NOT_FOUND', 'Session not found');
      }
      const now = clock.now();
      const method =
        input.method ??
        (sessionId ? (await one<{ method: string }>(db, sql`SELECT method FROM sessions WHERE id = ${sessionId}`))?.method : undefined);
      const recorded = await db.transaction(async (tx) => {
        const ins = await one(
          tx,
          sql`INSERT INTO login_events (id, user_id, kind, source, method, device, session_id, ip, user_agent, created_at)
              VALUES (${uuid()}, ${user.id}, 'login', 'client', ${method ?? null}, ${input.device ?? null}, ${sessionId ?? null},
                      ${meta.ip ?? null}, ${meta.userAgent ?? null}, ${now})
              ON CONFLICT (session_id) WHERE kind = 'login' DO NOTHING RETURNING 1`,
        );
        if (!ins) return false;
        const lagos = new Date(now.getTime() + HOUR).toISOString().replace('T', ' ').slice(0, 16);
        const when = `${lagos} (Lagos time)`;
        const body = [
          `New sign-in to your account on ${when}.`,
          `Device: ${input.device ?? meta.userAgent ?? 'unknown'}`,
          `Method: ${method ?? 'unknown'}`,
          `IP address: ${meta.ip ?? 'unknown'}`,
          'If this was not you, sign in and change your PINs, and contact support.',
        ].join('\n');
        // login_alert is always e-mailed by the notifier's outbox (notifications module), from a job.
        await notifier.emit(tx, {
          userId: user.id,
          kind: 'login_alert',
          title: 'New sign-in to your account',
          body,
          // The facts the notice is worded from in the owner's language (issue 29).
          data: {
            event: 'new_sign_in',
            method: method ?? 'unknown',
            device: input.device ?? meta.userAgent ?? 'unknown',
            ip: meta.ip ?? 'unknown',
            when: lagos,
          },
        });
        return true;
      });
      return { recorded, alerted: recorded };
    },

    /**
     * POST /api/public/login-failed: a client reports a failed sign-in (no token). The request does the same work
     * whether or not an account sits behind the identifier (one statement records the failure, with the account
     * looked up inside it, and enqueues the alert check; then the address's count), so neither the answer nor its
     * time tells which identifiers exist. Whether to alert the owner is decided afterwards, by the job.
     */
    async reportLoginFailure(input: { identifier: LoginIdentifier; method?: string; reason?: string }, meta: Meta) {
      const idHash = identifierHash(input.identifier);
      const id = input.identifier;
      const eventId = uuid();
      const account =
        id.type === 'email'
          ? sql`(SELECT id FROM users WHERE email = ${id.value} AND status = 'active')`
          : sql`(SELECT id FROM users WHERE username = ${id.value} AND status = 'active')`;
      await db.execute(sql`WITH failure AS (
          INSERT INTO login_events (id, user_id, kind, source, method, ip, user_agent, identifier_hash, reason, created_at)
          VALUES (${eventId}, ${account}, 'failure', 'client', ${input.method ?? 'unknown'}, ${meta.ip ?? null},
                  ${meta.userAgent ?? null}, ${idHash}, ${input.reason ?? 'reported'}, ${clock.now()})
          RETURNING id)
        ${jobs.enqueueSql(LOGIN_FAILURE_ALERT_JOB, { eventId }, {}, sql`failure`)}`);
      // A reported failure counts toward the address's PIN-login pause for this identifier, as an observed one does.
      if (meta.ip) {
        const key = ipKey(idHash, meta.ip);
        const r = await attempts.reserve(key, ipLimit);
        if (r.ok) await attempts.fail(key, r.tries, ipLimit);
      }
    },

    /** The alert check of a reported failure (LOGIN_FAILURE_ALERT_JOB): only for a failure on a real account. */
    async alertAfterReport(eventId: string) {
      const ev = await one<{ user_id: string | null }>(db, sql`SELECT user_id FROM login_events WHERE id = ${eventId}`);
      if (ev?.user_id) await maybeAlert(ev.user_id);
    },
  };
}
