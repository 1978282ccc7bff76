import type { Work } from '../../platform/change.js';
import { sql } from 'drizzle-orm';
import { isIP } from 'node:net';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { RowOf } from '../../db/rows.js';
import type { ApiScope, AuthUser } from '../../kernel/actor.js';
import { HOUR, lagosDate, type Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { Ledger } from '../../ledger/types.js';
import { profileOf, type IdentityService } from '../identity/api.js';
import { MAX_KEYS } from './inputs.js';
import { hashOfSecret, newSecret, type KeyMode } from './keys.js';
import type { apiKeys } from './schema.js';
import { shadowAccounts, type ForwardedAnswer, type ForwardedRequest } from './test-mode.js';

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

/**
 * The test world as the live one sees it (test-mode.ts; built by the composition root on first use). Inside the test
 * world itself there is none.
 */
export interface TestWorld {
  /** Answers a request made with a test key, in the test world. */
  forward(request: ForwardedRequest): Promise<ForwardedAnswer>;
  /** The test world's own developers service: its keys, shadow accounts and test wallets. */
  developers(): Promise<DevelopersService>;
  close(): Promise<void>;
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is 1.2.3.4. */
const plainAddress = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

/** Last use is written at most once a minute per key: a busy key must not write its row on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface DevelopersDeps {
  db: Db;
  clock: Clock;
  brand: string;
  ledger: Ledger;
  work: Work;
  identity: IdentityService;
  /** Null inside the test world: its keys are test keys, and it has no test world of its own. */
  testWorld: TestWorld | null;
}

export function createDevelopersService(deps: DevelopersDeps) {
  const { db, clock, brand, testWorld } = deps;
  /** The keys this world authenticates: live keys here, test keys in the test world. */
  const world: KeyMode = testWorld ? 'live' : 'test';
  const today = () => lagosDate(clock.now());
  const tested = async () => {
    if (!testWorld) throw new AppError('NOT_FOUND', 'API key not found');
    return testWorld.developers();
  };

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
    async createKey(user: AuthUser, k: NewKey): Promise<{ key: ApiKeyView; secret: string }> {
      if (k.mode !== world) {
        // A test key is made in the test world, for the customer's shadow account there.
        const tw = await tested();
        return tw.createKey({ ...user, id: await tw.shadow.ensure(user) }, k);
      }
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

    /** The customer's keys, live and (from the test world) test, newest first. */
    async listKeys(user: Pick<AuthUser, 'id' | 'email'>): Promise<ApiKeyView[]> {
      const list = await rows<KeyRow>(
        db,
        sql`SELECT ${COLUMNS} FROM api_keys WHERE user_id = ${user.id} ORDER BY created_at DESC, id DESC`,
      );
      const own = list.map((r) => viewOf(r, today()));
      if (!testWorld) return own;
      const tw = await testWorld.developers();
      const shadowId = await userIdByEmailOrNull(tw, user.email);
      const tests = shadowId ? await tw.listKeys({ id: shadowId, email: user.email }) : [];
      return [...own, ...tests].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    },

    async revokeKey(user: Pick<AuthUser, 'id' | 'email'>, id: string): Promise<ApiKeyView> {
      const r = await one<KeyRow>(
        db,
        sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${clock.now()})
            WHERE id = ${id} AND user_id = ${user.id} RETURNING ${COLUMNS}`,
      );
      if (r) return viewOf(r, today());
      const tw = await tested();
      return tw.revokeKey({ id: await tw.shadow.idOf(user.email), email: user.email }, id);
    },

    /**
     * A new secret with the same settings; the old one keeps working for `overlapHours` (0: ends now), so a
     * deployment can switch without an outage.
     */
    async rollKey(user: Pick<AuthUser, 'id' | 'email'>, id: string, overlapHours: number): Promise<{ key: ApiKeyView; secret: string }> {
      const userId = user.id;
      const mine = await one<{ id: string }>(db, sql`SELECT id FROM api_keys WHERE id = ${id} AND user_id = ${userId}`);
      if (!mine) {
        const tw = await tested();
        return tw.rollKey({ id: await tw.shadow.idOf(user.email), email: user.email }, id, overlapHours);
      }
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
      if (!k || k.mode !== world || k.revoked_at !== null || (k.expires_at !== null && new Date(k.expires_at) <= now))
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

    /** Test mode's shadow accounts and wallets (used in the test world, by the live world's developer page). */
    shadow: shadowAccounts(deps),

    /** The customer's test wallet: its balance in the test world, after adding `naira` when asked to. */
    async testWallet(user: Pick<AuthUser, 'email' | 'kycTier'>, naira?: number): Promise<{ balance: number }> {
      const tw = await tested();
      if (naira === undefined) return { balance: await tw.shadow.balance(user.email) };
      await tw.shadow.ensure(user);
      return { balance: await tw.shadow.fund(user.email, naira) };
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

const userIdByEmailOrNull = (tw: DevelopersService, email: string) => tw.shadow.idOf(email).catch(() => null);
