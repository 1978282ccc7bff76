import { createHmac, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { pinCheckBatcher } from './pin-batch.js';
import type { PinKind } from './pin-rules.js';

/** What the PIN use cases (pin-verify.ts, pin-set.ts) use. */
export interface PinDeps {
  db: Db;
  clock: Clock;
  pepper: string;
  /** The checks of concurrent requests made by one statement (pin-batch.ts); null: each check alone. */
  batcher: ReturnType<typeof pinCheckBatcher> | null;
}

// Asynchronous scrypt runs on libuv's thread pool, off the event loop; only set() and rows from before
// the check MAC use it.
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  keylen: number,
  opts: { N: number; r: number; p: number },
) => Promise<Buffer>;

/** The PIN's scrypt hash over pepper + per-row salt (`hash`). */
export const hashPin = async (pepper: string, pin: string, salt: string) =>
  (await scryptAsync(`${pepper}:${pin}`, salt, 32, { N: 1024, r: 8, p: 1 })).toString('hex');

/** The PIN's check MAC (`check_mac`): HMAC-SHA256 keyed by the pepper over (kind, user, PIN). */
export const checkMac = (pepper: string, userId: string, kind: PinKind, pin: string) =>
  createHmac('sha256', pepper).update(`pin-check\n${kind}\n${userId}\n${pin}`).digest('hex');

/** The user's enabled PIN of a kind. */
export const where = (userId: string, kind: PinKind) => sql`user_id = ${userId} AND kind = ${kind} AND enabled`;
