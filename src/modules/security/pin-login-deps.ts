import type { Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { addressKey } from '../../lib/address-key.js';
import type { IdentityService } from '../identity/api.js';
import { PIN_LOCK_MS, PIN_MAX_ATTEMPTS, type PinService } from '../identity/api.js';
import type { AttemptLimit, AttemptLimits } from '../identity/api.js';
import type { CredentialNotices } from './credential-notices.js';
import type { FirstCredential } from './first-credential.js';
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
export const pinLimit: AttemptLimit = { max: PIN_MAX_ATTEMPTS, lockMs: PIN_LOCK_MS, doubling: true, maxLockMs: DAY };

/** What PIN login and the login PIN's settings (pin-login-start.ts, login-pin-settings.ts) use. */
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
