import { sql } from 'drizzle-orm';
import { isIP } from 'node:net';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { RowOf } from '../../db/rows.js';
import type { ApiScope, AuthUser } from '../../kernel/actor.js';
import { HOUR, lagosDate, type Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import { profileOf } from '../identity/api.js';
import { MAX_KEYS } from './inputs.js';
import { hashOfSecret, newSecret, type KeyMode } from './keys.js';
import type { apiKeys } from './schema.js';

/**
 * API keys (issue 45): a customer's keys, each with scopes, allowed addresses and a daily spend limit; the secret is
 * shown once and stored as its hash. A request with a key runs the same operations as a session (http/operation-key.ts).
 */
type KeyRow = RowOf<typeof apiKeys>;

export interface ApiKeyView {
  id: string;
  name: string;
  mode: KeyMode;
  prefix: string;
  scopes: ApiScope[];
  allowedIps: string[] | null;
  dailyLimit: number | null;
  spentToday: number;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  rolledFrom: string | null;
}

export interface NewKey {
  name: string;
  mode: KeyMode;
  scopes: ApiScope[];
  allowedIps?: string[];
  dailyLimit?: number;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function viewOf(r: KeyRow, today: string): ApiKeyView {
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
  };
}

const COLUMNS = sql`id, user_id, name, mode, prefix, secret_hash, scopes, allowed_ips, daily_limit::text AS daily_limit,
  spent_day::text AS spent_day, spent_today::text AS spent_today, created_at, last_used_at, expires_at, revoked_at, rolled_from`;

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is 1.2.3.4. */
const plainAddress = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

/** Last use is written at most once a minute per key: a busy key must not write its row on every request. */
const TOUCH_EVERY_MS = 60_000;

export function createDevelopersService(deps: { db: Db; clock: Clock; brand: string }) {
  const { db, clock, brand } = deps;
  const today = () => lagosDate(clock.now());

  async function insertKey(exec: Executor, userId: string, k: NewKey & { rolledFrom?: string }) {
    const made = newSecret(brand, k.mode);
    const r = await one<KeyRow>(
      exec,
      sql`INSERT INTO api_keys (id, user_id, name, mode, prefix, secret_hash, scopes, allowed_ips, daily_limit, created_at, rolled_from)
          VALUES (${prefixedId('key')}, ${userId}, ${k.name}, ${k.mode}, ${made.prefix}, ${made.hash},
                  ${`{${k.scopes.join(',')}}`}::text[], ${k.allowedIps?.length ? `{${k.allowedIps.join(',')}}` : null}::text[],
                  ${k.dailyLimit === undefined ? null : toKobo(k.dailyLimit).toString()}::bigint, ${clock.now()}, ${k.rolledFrom ?? null})
          RETURNING ${COLUMNS}`,
    );
    return { key: viewOf(r!, today()), secret: made.secret };
  }

  return {
    brand,

    /** A new key; its secret is in this answer only. Live keys need KYC Tier 2 (test keys move no real money). */
    async createKey(user: AuthUser, k: NewKey) {
      if (k.mode === 'live' && user.kycTier < 2)
        throw new AppError('KYC_TIER_REQUIRED', 'Live API keys need KYC Tier 2; test keys need Tier 1');
      const now = clock.now();
      const held = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM api_keys
            WHERE user_id = ${user.id} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})`,
      );
      if (held!.n >= MAX_KEYS) throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_KEYS} API keys at once: revoke one first`);
      return insertKey(db, user.id, k);
    },

    async listKeys(userId: string): Promise<ApiKeyView[]> {
      const list = await rows<KeyRow>(db, sql`SELECT ${COLUMNS} FROM api_keys WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`);
      return list.map((r) => viewOf(r, today()));
    },

    async revokeKey(userId: string, id: string): Promise<ApiKeyView> {
      const r = await one<KeyRow>(
        db,
        sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${clock.now()})
            WHERE id = ${id} AND user_id = ${userId} RETURNING ${COLUMNS}`,
      );
      if (!r) throw notFound('API key');
      return viewOf(r, today());
    },

    /**
     * A new secret with the same settings; the old one keeps working for `overlapHours` (0: ends now), so a
     * deployment can switch without an outage.
     */
    async rollKey(userId: string, id: string, overlapHours: number) {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const old = await one<KeyRow>(
          tx,
          sql`SELECT ${COLUMNS} FROM api_keys WHERE id = ${id} AND user_id = ${userId} AND revoked_at IS NULL
                AND (expires_at IS NULL OR expires_at > ${now}) FOR UPDATE`,
        );
        if (!old) throw notFound('API key');
        const ends = new Date(now.getTime() + overlapHours * HOUR);
        await rows(
          tx,
          overlapHours === 0
            ? sql`UPDATE api_keys SET revoked_at = ${now} WHERE id = ${id}`
            : sql`UPDATE api_keys SET expires_at = ${ends} WHERE id = ${id}`,
        );
        return insertKey(tx, userId, {
          name: old.name,
          mode: old.mode as KeyMode,
          scopes: old.scopes as ApiScope[],
          allowedIps: old.allowed_ips ?? undefined,
          dailyLimit: old.daily_limit === null ? undefined : toNaira(old.daily_limit),
          rolledFrom: id,
        });
      });
    },

    /** The caller a key stands for, or UNAUTHENTICATED / FORBIDDEN; its last use is written at most once a minute. */
    async authenticate(secret: string, ip: string): Promise<AuthUser> {
      const now = clock.now();
      const k = await one<KeyRow>(
        db,
        sql`WITH k AS (SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ${hashOfSecret(secret)}),
                 touch AS (UPDATE api_keys SET last_used_at = ${now}
                           WHERE id = (SELECT id FROM k) AND revoked_at IS NULL
                             AND (last_used_at IS NULL OR last_used_at < ${new Date(now.getTime() - TOUCH_EVERY_MS)}))
            SELECT * FROM k`,
      );
      if (!k || k.revoked_at !== null || (k.expires_at !== null && new Date(k.expires_at) <= now))
        throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired');
      if (k.allowed_ips && !k.allowed_ips.includes(plainAddress(ip)))
        throw new AppError('FORBIDDEN', 'This API key is not allowed from this address');
      const holder = await profileOf(db, k.user_id);
      if (!holder || holder.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
      return {
        id: k.user_id,
        email: holder.email,
        username: holder.username,
        role: 'user',
        operatorRoles: [],
        sessionId: null,
        kycTier: holder.kycTier,
        apiKey: {
          id: k.id,
          mode: k.mode as KeyMode,
          scopes: k.scopes as ApiScope[],
          dailyLimit: k.daily_limit === null ? null : BigInt(k.daily_limit),
        },
      };
    },

    /**
     * Adds `kobo` to the key's spend today, refused (LIMIT_EXCEEDED) when it would pass the key's daily limit or the
     * limit is already reached. `adjustSpend` then corrects it to what the request really charged.
     */
    async reserveSpend(keyId: string, kobo: bigint): Promise<void> {
      const day = today();
      const spent = sql`(CASE WHEN spent_day = ${day}::date THEN spent_today ELSE 0 END)`;
      const r = await one<{ id: string }>(
        db,
        sql`UPDATE api_keys SET spent_day = ${day}::date, spent_today = ${spent} + ${kobo.toString()}::bigint
            WHERE id = ${keyId} AND ${spent} < daily_limit AND ${spent} + ${kobo.toString()}::bigint <= daily_limit
            RETURNING id`,
      );
      if (!r) throw new AppError('LIMIT_EXCEEDED', "This API key's daily spend limit would be passed");
    },

    async adjustSpend(keyId: string, deltaKobo: bigint): Promise<void> {
      if (deltaKobo === 0n) return;
      await rows(
        db,
        sql`UPDATE api_keys SET spent_today = GREATEST(0, spent_today + ${deltaKobo.toString()}::bigint)
            WHERE id = ${keyId} AND spent_day = ${today()}::date`,
      );
    },
  };
}

export type DevelopersService = ReturnType<typeof createDevelopersService>;
