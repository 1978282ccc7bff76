import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import type { RowOf } from '../../db/rows.js';
import type { ApiScope } from '../../kernel/actor.js';
import { lagosDate } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import { newSecret, type KeyMode } from './keys.js';
import type { apiKeys } from './schema.js';
import type { ApiKeyView, DevelopersDeps, NewKey } from './deps.js';

/** An api_keys row as COLUMNS reads it. */
export type KeyRow = RowOf<typeof apiKeys>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A key as the API shows it; its spend counts only on `today` (Lagos). */
export function viewOf(r: KeyRow, today: string): ApiKeyView {
  return {
    id: r.id,
    name: r.name,
    mode: r.mode as KeyMode,
    prefix: r.prefix,
    scopes: r.scopes as ApiScope[],
    allowedIps: r.allowed_ips,
    dailyLimit: r.daily_limit === null ? null : toNaira(r.daily_limit),
    spentToday: r.spent_day && String(r.spent_day).slice(0, 10) === today ? toNaira(r.spent_today) : 0,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at),
    expiresAt: iso(r.expires_at),
    revokedAt: iso(r.revoked_at),
    rolledFrom: r.rolled_from,
    suspendedAt: iso(r.suspended_at),
  };
}

/** The columns a key is read with (KeyRow). */
export const COLUMNS = sql`id, user_id, name, mode, prefix, secret_hash, scopes, allowed_ips, daily_limit::text AS daily_limit,
  spent_day::text AS spent_day, spent_today::text AS spent_today, created_at, last_used_at, expires_at, revoked_at, rolled_from, suspended_at, suspended_by::text AS suspended_by`;

/** The keys this world authenticates: live keys here, test keys in the test world. */
export const worldOf = ({ testWorld }: Pick<DevelopersDeps, 'testWorld'>): KeyMode => (testWorld ? 'live' : 'test');

/** Today's date in Lagos, the day a key's spend counts on. */
export const today = ({ clock }: DevelopersDeps) => lagosDate(clock.now());

/** The test world's developers service; none inside the test world itself (a key there is "not found"). */
export const tested = async ({ testWorld }: DevelopersDeps) => {
  if (!testWorld) throw new AppError('NOT_FOUND', 'API key not found');
  return testWorld.developers();
};

/** Inserts a key with a new secret; the answer holds the secret, shown once. */
export async function insertKey(deps: DevelopersDeps, exec: Executor, userId: string, k: NewKey & { rolledFrom?: string }) {
  const { brand, clock } = deps;
  const made = newSecret(brand, k.mode);
  const r = await one<KeyRow>(
    exec,
    sql`INSERT INTO api_keys (id, user_id, name, mode, prefix, secret_hash, scopes, allowed_ips, daily_limit, created_at, rolled_from)
        VALUES (${prefixedId('key')}, ${userId}, ${k.name}, ${k.mode}, ${made.prefix}, ${made.hash},
                ${`{${k.scopes.join(',')}}`}::text[], ${k.allowedIps?.length ? `{${k.allowedIps.join(',')}}` : null}::text[],
                ${k.dailyLimit === undefined ? null : toKobo(k.dailyLimit).toString()}::bigint, ${clock.now()}, ${k.rolledFrom ?? null})
        RETURNING ${COLUMNS}`,
  );
  return { key: viewOf(r!, today(deps)), secret: made.secret };
}
