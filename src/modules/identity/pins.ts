import { pinCheckBatcher } from './pin-batch.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { PinKind } from './pin-rules.js';
import type { PinDeps } from './pin-deps.js';
import { PIN_CHECK_OPTS, pinMatches, verifyPin } from './pin-verify.js';
import { disablePin, isPinSet, setFirstPin, setPin } from './pin-set.js';

export { PIN_LOCK_MS, PIN_MAX_ATTEMPTS, pinLockedError, wrongPinError } from './pin-rules.js';
export type { PinKind } from './pin-rules.js';

export interface PinService {
  isSet(userId: string, kind: PinKind): Promise<boolean>;
  set(userId: string, kind: PinKind, pin: string): Promise<void>;
  /** Sets a PIN only if the account never had one of this kind (disabled ones count); false when it had. */
  setFirst(userId: string, kind: PinKind, pin: string): Promise<boolean>;
  disable(userId: string, kind: PinKind): Promise<void>;
  /** Throws PIN_NOT_SET, PIN_LOCKED (429) or `wrongCode` on a wrong PIN. */
  verify(userId: string, kind: PinKind, pin: string, wrongCode?: 'INVALID_PIN' | 'INVALID_CREDENTIALS'): Promise<void>;
  /**
   * Compares without counting: for a caller that reserved the try in an attempt budget of its own first (login PINs,
   * one budget per known device and one for unrecognised sources: issue #28). null when no PIN is set.
   */
  matches(userId: string, kind: PinKind, pin: string): Promise<boolean | null>;
}

/** The PIN service (pin-rules.ts): one file per use case, wired here with the batcher they share. */
export function createPinService({
  db,
  clock,
  pepper,
  batchMax = 1,
}: {
  db: Db;
  clock: Clock;
  pepper: string;
  /** > 1: the checks of concurrent requests made by one statement on a PostgreSQL pool (pin-batch.ts). */
  batchMax?: number;
}): PinService {
  const batcher = batchMax > 1 ? pinCheckBatcher(db, { max: batchMax, ...PIN_CHECK_OPTS }) : null;
  const deps: PinDeps = { db, clock, pepper, batcher };
  return {
    verify: (userId, kind, pin, wrongCode) => verifyPin(deps, userId, kind, pin, wrongCode),
    matches: (userId, kind, pin) => pinMatches(deps, userId, kind, pin),
    isSet: (userId, kind) => isPinSet(deps, userId, kind),
    set: (userId, kind, pin) => setPin(deps, userId, kind, pin),
    setFirst: (userId, kind, pin) => setFirstPin(deps, userId, kind, pin),
    disable: (userId, kind) => disablePin(deps, userId, kind),
  };
}
