import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { SessionView, UserRow } from '../identity/api.js';
import { pinLockedError, wrongPinError } from '../identity/api.js';
import { ipKey, ipLimit, pinLimit, type LoginIdentifier, type Meta, type PinLoginDeps } from './pin-login-deps.js';

const pinLocked = ({ clock }: PinLoginDeps, s: number) => pinLockedError(s, clock.now());

const findActive = ({ db }: PinLoginDeps, id: LoginIdentifier) =>
  one<UserRow>(
    db,
    id.type === 'email'
      ? sql`SELECT * FROM users WHERE email = ${id.value} AND status = 'active'`
      : sql`SELECT * FROM users WHERE username = ${id.value} AND status = 'active'`,
  );

async function reserveFromHere(
  { attempts }: PinLoginDeps,
  idHash: string,
  ip: string | undefined,
): Promise<{ key: string; tries: number } | null> {
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

async function failUnknown(deps: PinLoginDeps, idHash: string, meta: Meta): Promise<never> {
  const { db, attempts, failures } = deps;
  const key = `pin-login-unknown:${idHash}`;
  const r = await attempts.reserve(key, pinLimit);
  if (!r.ok) throw pinLocked(deps, r.retryAfter);
  await failures.recordFailure(db, { userId: null, idHash, ...meta, method: 'pin', reason: 'invalid_credentials', source: 'server' });
  const locked = await attempts.fail(key, r.tries, pinLimit);
  if (locked) throw pinLocked(deps, locked);
  throw wrongPinError('INVALID_CREDENTIALS', pinLimit.max - r.tries);
}

/** The login PIN's check against the budget of `key` (a known device's, or every unrecognised source's). */
async function checkPin(deps: PinLoginDeps, user: UserRow, pin: string, key: string, idHash: string, meta: Meta) {
  const { db, pins, attempts, failures } = deps;
  const failed = async (reason: string) => {
    await failures.recordFailure(db, { userId: user.id, idHash, ...meta, method: 'pin', reason, source: 'server' });
    await failures.maybeAlert(user.id);
  };
  const r = await attempts.reserve(key, pinLimit);
  if (!r.ok) {
    await failed('pin_locked');
    throw pinLocked(deps, r.retryAfter);
  }
  if (await pins.matches(user.id, 'login', pin)) return attempts.succeed(key);
  await failed('invalid_credentials');
  const locked = await attempts.fail(key, r.tries, pinLimit);
  if (locked) throw pinLocked(deps, locked);
  throw wrongPinError('INVALID_CREDENTIALS', pinLimit.max - r.tries);
}

/**
 * Each try is reserved before anything is compared: a known device of the account (its device cookie) against
 * its own budget; any other source against the per-address pause and the budget all unrecognised sources share.
 * Parallel requests pass neither. Guesses from elsewhere never lock the owner's device out, and a locked login
 * PIN never blocks the e-mail code (docs/security.md, "Lock-out resistance"). Returns the session and the
 * tokens the device cookie holds from now on.
 */
export async function startPinLogin(
  deps: PinLoginDeps,
  id: LoginIdentifier,
  pin: string,
  meta: Meta & { deviceTokens?: readonly string[] },
): Promise<{ session: SessionView; deviceTokens: string[] }> {
  const { pins, identity, attempts, identifierHash } = deps;
  const idHash = identifierHash(id);
  const user = await findActive(deps, id);
  const device = user && meta.deviceTokens?.length ? await identity.devices.recognise(user.id, meta) : null;
  const here = device ? null : await reserveFromHere(deps, idHash, meta.ip);
  try {
    if (!user || !(await pins.isSet(user.id, 'login'))) return await failUnknown(deps, idHash, meta);
    await checkPin(deps, user, pin, device ? `pin-login-device:${device}` : `pin-login-untrusted:${user.id}`, idHash, meta);
  } catch (err) {
    if (here) await attempts.fail(here.key, here.tries, ipLimit);
    throw err;
  }
  if (here) await attempts.succeed(here.key);
  // Issue 43: a device the account does not know waits for the second factor, and becomes known only after it.
  const pending = !device && (await identity.signInNeedsSecondFactor(user));
  const session = await identity.openSession(user, 'pin', meta, pending);
  return { session, deviceTokens: pending ? [] : await identity.devices.remember(user.id, meta) };
}
