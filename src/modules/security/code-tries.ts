import type { AuthUser } from '../../kernel/actor.js';
import { MINUTE } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { AttemptLimit, AttemptLimits, DeviceClient } from '../identity/api.js';

/** Wrong authenticator codes before code checks lock, like PINs: 15 minutes, doubling on each repeat lock. */
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_LOCK_MS = 15 * MINUTE;

/** Where a code comes from: the caller's address and User-Agent, and its device cookie's tokens. */
export type CodeSource = DeviceClient;

/**
 * Authenticator-code tries (issue #28): a known device of the account (its device cookie) has a budget of its own;
 * every other caller, a thief holding only an access token among them, shares the account's other budget. So wrong
 * codes sent with a stolen token never lock the owner's device out of step-up. Each try is reserved before the
 * comparison (one conditional upsert), so parallel guesses cannot pass the limit.
 */
export function createCodeTries(deps: {
  attempts: AttemptLimits;
  devices: { recognise(userId: string, from: DeviceClient): Promise<string | null> };
}) {
  const { attempts, devices } = deps;
  const limit: AttemptLimit = { max: CODE_MAX_ATTEMPTS, lockMs: CODE_LOCK_MS, doubling: true };
  const tooMany = (s: number) =>
    new AppError('RATE_LIMITED', `Too many wrong codes; try again in ${Math.ceil(s / 60)} minutes`, { retryAfter: s });

  return {
    /** The caller's address and the account's known device it presented, if any. */
    async sourceOf(user: AuthUser, from: CodeSource): Promise<{ ip?: string; device: string | null }> {
      return { ip: from.ip, device: from.deviceTokens?.length ? await devices.recognise(user.id, from) : null };
    },

    /** The budget a try spends: the known device's, or the one every other caller shares. */
    keyOf: (user: AuthUser, device: string | null) => (device ? `totp-device:${device}` : `totp-untrusted:${user.id}`),

    /** Reserves a try; refused (RATE_LIMITED) while locked or while every try is taken by checks in flight. */
    async reserve(key: string): Promise<number> {
      const r = await attempts.reserve(key, limit);
      if (!r.ok) throw tooMany(r.retryAfter);
      return r.tries;
    },

    /** A reserved try that was not a wrong guess (a replay, an e-mailed code that matched) is given back. */
    release: (key: string) => attempts.release(key),

    succeed: (key: string) => attempts.succeed(key),

    /** A wrong code: the try that used the last one locks code checks (and answers RATE_LIMITED). */
    async fail(key: string, tries: number): Promise<void> {
      const locked = await attempts.fail(key, tries, limit);
      if (locked) throw tooMany(locked);
    },
  };
}
