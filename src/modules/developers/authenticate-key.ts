import { sql } from 'drizzle-orm';
import { isIP } from 'node:net';
import { one } from '../../db/client.js';
import type { ApiScope, AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import { COLUMNS, worldOf, type KeyRow } from './key-rows.js';
import { hashOfSecret, type KeyMode } from './keys.js';
import type { DevelopersDeps } from './deps.js';

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is 1.2.3.4. */
const plainAddress = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

/** Last use is written at most once a minute per key: a busy key must not write its row on every request. */
const TOUCH_EVERY_MS = 60_000;

/** The caller a key stands for, or UNAUTHENTICATED / FORBIDDEN; its last use is written at most once a minute. */
export async function authenticate(deps: DevelopersDeps, secret: string, ip: string): Promise<AuthUser> {
  const { db, clock } = deps;
  const now = clock.now();
  const k = await one<KeyRow>(
    db,
    sql`WITH k AS (SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ${hashOfSecret(secret)}),
             touch AS (UPDATE api_keys SET last_used_at = ${now}
                       WHERE id = (SELECT id FROM k) AND revoked_at IS NULL AND suspended_at IS NULL
                         AND (last_used_at IS NULL OR last_used_at < ${new Date(now.getTime() - TOUCH_EVERY_MS)}))
        SELECT * FROM k`,
  );
  if (!k || k.mode !== worldOf(deps) || k.revoked_at !== null || (k.expires_at !== null && new Date(k.expires_at) <= now))
    throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired');
  if (k.suspended_at !== null) throw new AppError('KEY_SUSPENDED', 'This API key is suspended by the business: contact support');
  if (k.allowed_ips && !k.allowed_ips.includes(plainAddress(ip)))
    throw new AppError('FORBIDDEN', 'This API key is not allowed from this address');
  const holder = await deps.identity.keyHolder(k.user_id);
  if (!holder || holder.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
  return {
    id: k.user_id,
    email: holder.email,
    username: holder.username,
    role: 'user',
    operatorRoles: [],
    sessionId: null,
    kycTier: holder.kycTier,
    // The freeze comes with the holder's account, so a money operation asks nothing more (operation-auth.ts).
    frozen: holder.frozen,
    apiKey: {
      id: k.id,
      mode: k.mode as KeyMode,
      scopes: k.scopes as ApiScope[],
      dailyLimit: k.daily_limit === null ? null : BigInt(k.daily_limit),
    },
  };
}
