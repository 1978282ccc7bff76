import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { addressKey } from '../../lib/address-key.js';
import type { IdentityService, SessionView, UserRow } from '../identity/api.js';
import { PIN_LOCK_MS, PIN_MAX_ATTEMPTS, pinLockedError, wrongPinError, type PinService } from '../identity/api.js';
import type { AttemptLimit, AttemptLimits } from '../identity/api.js';
import type { CredentialNotices } from './credential-notices.js';
import { stepUpRequired, type FirstCredential } from './first-credential.js';
import { FAILURE_WINDOW_MS, type LoginFailures } from './login-failures.js';

/** Failures (reported or observed) from one IP for one identifier before PIN login from that IP pauses. */
export const IP_IDENTIFIER_MAX_FAILURES = 10;

export type LoginIdentifier = { type: 'username' | 'email'; value: string };

export interface Meta {
  ip?: string;
  userAgent?: string;
}

/** Per IP and identifier: failures from one address pause PIN login from there (reserved before the check). */
export const ipLimit: AttemptLimit = { max: IP_IDENTIFIER_MAX_FAILURES, lockMs: FAILURE_WINDOW_MS };
export const ipKey = (idHash: string, ip: string) => `pin-login-ip:${idHash}:${addressKey(ip)}`;
/**
 * Login-PIN tries: per known device, and per account for all unrecognised sources together; 5, then 15 minutes,
 * doubling up to a day. An unknown identifier (or one without a login PIN) locks the same way, so it does not
 * reveal itself.
 */
const pinLimit: AttemptLimit = { max: PIN_MAX_ATTEMPTS, lockMs: PIN_LOCK_MS, doubling: true, maxLockMs: DAY };

export interface PinLoginDeps {
  db: Db;
  clock: Clock;
  pins: PinService;
  identity: IdentityService;
  attempts: AttemptLimits;
  notices: CredentialNotices;
  reauth: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  firstCredential: FirstCredential;
  failures: LoginFailures;
  identifierHash(id: LoginIdentifier): string;
}

/** Sign-in with a login PIN, and the login PIN's own settings. */
export function createPinLogin(deps: PinLoginDeps) {
  const { db, clock, pins, identity, attempts, notices, failures, identifierHash } = deps;
  const pinLocked = (s: number) => pinLockedError(s, clock.now());

  const findActive = (id: LoginIdentifier) =>
    one<UserRow>(
      db,
      id.type === 'email'
        ? sql`SELECT * FROM users WHERE email = ${id.value} AND status = 'active'`
        : sql`SELECT * FROM users WHERE username = ${id.value} AND status = 'active'`,
    );

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
    await failures.recordFailure(db, { userId: null, idHash, ...meta, method: 'pin', reason: 'invalid_credentials', source: 'server' });
    const locked = await attempts.fail(key, r.tries, pinLimit);
    if (locked) throw pinLocked(locked);
    throw wrongPinError('INVALID_CREDENTIALS', pinLimit.max - r.tries);
  }

  /** The login PIN's check against the budget of `key` (a known device's, or every unrecognised source's). */
  async function checkPin(user: UserRow, pin: string, key: string, idHash: string, meta: Meta) {
    const failed = async (reason: string) => {
      await failures.recordFailure(db, { userId: user.id, idHash, ...meta, method: 'pin', reason, source: 'server' });
      await failures.maybeAlert(user.id);
    };
    const r = await attempts.reserve(key, pinLimit);
    if (!r.ok) {
      await failed('pin_locked');
      throw pinLocked(r.retryAfter);
    }
    if (await pins.matches(user.id, 'login', pin)) return attempts.succeed(key);
    await failed('invalid_credentials');
    const locked = await attempts.fail(key, r.tries, pinLimit);
    if (locked) throw pinLocked(locked);
    throw wrongPinError('INVALID_CREDENTIALS', pinLimit.max - r.tries);
  }

  return {
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
        await checkPin(user, pin, device ? `pin-login-device:${device}` : `pin-login-untrusted:${user.id}`, idHash, meta);
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
  };
}
