import { sql } from 'drizzle-orm';
import type { AlertsConfig } from '../../config-alerts.js';
import { one, rows, type Db } from '../../db/client.js';
import { DAY, HOUR, type Clock } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import { PROVIDER_IDS } from '../../providers/vtu/types.js';
import { providerBurn, stuckPurchases } from '../vtu/api.js';
import { providers, volume } from './dashboard-purchases.js';
import { ageSeconds as seconds, waitingWork } from './waiting.js';

/** Burn rate of a float: what its provider consumed over this many days, per day. */
export const BURN_DAYS = 7;

/** Float and pool accounts: the balance snapshot (console.balance-snapshots) plus the account's entries after it. */
export const FLOAT_CODES = [...PROVIDER_IDS.map((p) => `system:provider_float:${p}`), 'system:collections'];
const codeList = (codes: readonly string[]) => sql`${`{${codes.join(',')}}`}::text[]`;
export const balancesStatement = (codes: readonly string[]) =>
  sql`SELECT a.code, (coalesce(s.balance, 0) + coalesce((SELECT sum(e.amount) FROM ledger_entries e
                                                          WHERE e.account_id = a.id AND e.id > coalesce(s.through_id, 0)), 0))::text AS balance
      FROM accounts a LEFT JOIN account_balance_snapshots s ON s.account_id = a.id WHERE a.code = ANY(${codeList(codes)})`;

/**
 * Moves each float account's snapshot forward to its newest entry older than `settledBefore`: an entry's id is
 * taken when its posting runs, and postings are short transactions, so every lower id has committed by then and
 * the snapshot never skips an entry that commits later.
 */
export function snapshotStatement(settledBefore: Date, now: Date) {
  return sql`INSERT INTO account_balance_snapshots (account_id, through_id, balance, updated_at)
    SELECT a.id, t.through, coalesce(s.balance, 0) + coalesce((SELECT sum(e.amount) FROM ledger_entries e
                                                              WHERE e.account_id = a.id AND e.id > coalesce(s.through_id, 0) AND e.id <= t.through), 0),
           ${now}
    FROM accounts a
    LEFT JOIN account_balance_snapshots s ON s.account_id = a.id
    CROSS JOIN LATERAL (SELECT e.id AS through FROM ledger_entries e WHERE e.account_id = a.id AND e.created_at < ${settledBefore}
                        ORDER BY e.id DESC LIMIT 1) t
    WHERE a.code = ANY(${codeList(FLOAT_CODES)}) AND t.through > coalesce(s.through_id, 0)
    ON CONFLICT (account_id) DO UPDATE SET through_id = EXCLUDED.through_id, balance = EXCLUDED.balance, updated_at = EXCLUDED.updated_at`;
}

/** The levels below which a float or the pool is low (ALERT_FLOAT_BELOW, ALERT_POOL_BELOW; kobo). */
export type FundsThresholds = Pick<AlertsConfig, 'floatBelow' | 'poolBelow'>;

/**
 * Issue 44: which floats and whether the pool are low, one rule for the dashboard's tile and the alerts: a provider's
 * float below ALERT_FLOAT_BELOW (one at or below ₦0 always: purchases through it wait for funding), the collections
 * pool below ALERT_POOL_BELOW. Balances as held (kobo): a float is the provider's debt to us, the pool our money.
 */
export function lowFunds(t: FundsThresholds, floats: readonly { provider: string; balance: bigint }[], pool: bigint) {
  return {
    low: floats.filter((f) => f.balance < t.floatBelow || f.balance <= 0n).map((f) => f.provider),
    poolLow: pool < t.poolBelow,
  };
}

/** The alerts' keys of a low float and of a low pool (operator_alerts). */
export const floatAlertKey = (provider: string) => `float:${provider}`;
export const POOL_ALERT_KEY = 'pool';

/**
 * The tile's floats: the low ones by the shared rule and the thresholds, and how long the oldest of them has been low
 * as far as is kept. No balance history is kept; the alerts' row of a low float or pool (operator_alerts.raised_at)
 * holds when their check, every ALERT_EVERY_MS, first found it low, and stays while it holds: the float has been low
 * at least that long. Null while no check has seen it yet.
 */
function lowFloats(
  t: FundsThresholds,
  balances: { code: string; balance: string }[],
  raised: { key: string; raised_at: string }[],
  now: Date,
) {
  // A system account holds money as a negative balance.
  const held = (code: string) => -BigInt(balances.find((b) => b.code === code)?.balance ?? '0');
  const { low, poolLow } = lowFunds(
    t,
    PROVIDER_IDS.map((p) => ({ provider: p, balance: held(`system:provider_float:${p}`) })),
    held('system:collections'),
  );
  const keys = new Set([...low.map(floatAlertKey), ...(poolLow ? [POOL_ALERT_KEY] : [])]);
  const since = raised
    .filter((r) => keys.has(r.key))
    .map((r) => r.raised_at)
    .reduce<string | null>((a, b) => (a === null || new Date(b) < new Date(a) ? b : a), null);
  return {
    low,
    floatBelow: toNaira(t.floatBelow),
    poolLow,
    poolBelow: toNaira(t.poolBelow),
    lowForSeconds: seconds(since, now),
  };
}

/** withdrawalStuckAfterMs: WITHDRAWAL_STUCK_AFTER_MINUTES (console/waiting.ts's default without it). */
type DashboardDeps = { db: Db; clock: Clock; stuckAfterMs: number; withdrawalStuckAfterMs?: number; thresholds: FundsThresholds };

/** The float accounts' balances, their providers' burn per day and days of headroom, and the collections pool's. */
async function floats({ db, clock }: DashboardDeps) {
  const now = clock.now();
  const since = new Date(now.getTime() - BURN_DAYS * DAY);
  const codes = FLOAT_CODES;
  const [balances, burns] = await Promise.all([
    rows<{ code: string; balance: string }>(db, balancesStatement(codes)),
    // The window ends at this instant included (a purchase of this very millisecond counts).
    providerBurn(db, since, new Date(now.getTime() + 1)),
  ]);
  const balanceOf = (code: string) => BigInt(balances.find((b) => b.code === code)?.balance ?? '0');
  const headroom = (balance: bigint, perDay: bigint) => (perDay > 0n ? Math.round((Number(balance) / Number(perDay)) * 10) / 10 : null);
  const items = PROVIDER_IDS.map((p) => {
    // The float account is the provider's debt to us in our books: funding debits it, purchases credit it.
    const balance = -balanceOf(`system:provider_float:${p}`);
    const perDay = BigInt(burns.find((b) => b.provider === p)?.burn ?? '0') / BigInt(BURN_DAYS);
    return { provider: p, balance: toNaira(balance), burnPerDay: toNaira(perDay), daysOfHeadroom: headroom(balance, perDay) };
  });
  // Floats are funded just in time from the collections pool: the pool is the headroom behind every float.
  // A system account holds money as a negative balance (a top-up debits the pool, a funding credits it).
  const pool = -balanceOf('system:collections');
  // A pool below zero owes the floats already: no days of headroom, a problem the dashboard shows (issue 44).
  const totalPerDay = items.reduce((s, i) => s + BigInt(Math.round(i.burnPerDay * 100)), 0n);
  const floatsTotal = items.reduce((s, i) => s + BigInt(Math.round(i.balance * 100)), 0n);
  return {
    burnDays: BURN_DAYS,
    items,
    collections: { balance: toNaira(pool), daysOfHeadroom: pool < 0n ? null : headroom(pool + floatsTotal, totalPerDay) },
  };
}

/** The work waiting: stuck purchases, webhooks, due and dead jobs, KYC reviews, people's queues and low floats. */
async function queues(deps: DashboardDeps) {
  const { db, clock } = deps;
  const now = clock.now();
  const stuckBefore = new Date(now.getTime() - deps.stuckAfterMs);
  const [stuck, webhook, waiting, due, dead, kyc, people, balances, raised] = await Promise.all([
    stuckPurchases(db, stuckBefore),
    one<{ n: number; max: number | null; avg: number | null }>(
      db,
      sql`SELECT count(*)::int AS n, max(extract(epoch FROM processed_at - received_at))::float8 AS max,
                   avg(extract(epoch FROM processed_at - received_at))::float8 AS avg
            FROM processor_events WHERE status = 'credited' AND received_at > ${new Date(now.getTime() - HOUR)}`,
    ),
    one<{ n: number; oldest: string | null }>(
      db,
      sql`SELECT count(*)::int AS n, min(received_at) AS oldest FROM processor_events WHERE status = 'received'`,
    ),
    rows<{ queue: string; n: number; oldest: string | null }>(
      db,
      sql`SELECT queue, count(*)::int AS n, min(run_at) AS oldest FROM jobs WHERE status = 'queued' AND run_at <= ${now} GROUP BY queue ORDER BY min(run_at)`,
    ),
    // A dead job's updated_at is when its last attempt failed (jobs/queue.ts recordFailure): when it died.
    rows<{ queue: string; n: number; oldest: string | null }>(
      db,
      sql`SELECT queue, count(*)::int AS n, min(updated_at) AS oldest FROM jobs WHERE status = 'dead' GROUP BY queue ORDER BY queue`,
    ),
    rows<{ tier: number; n: number; oldest: string | null }>(
      db,
      sql`SELECT tier, count(*)::int AS n, min(created_at) AS oldest FROM kyc_submissions WHERE status = 'pending' GROUP BY tier ORDER BY tier`,
    ),
    waitingWork(db, now, deps.withdrawalStuckAfterMs),
    rows<{ code: string; balance: string }>(db, balancesStatement(FLOAT_CODES)),
    rows<{ key: string; raised_at: string }>(
      db,
      sql`SELECT key, raised_at FROM operator_alerts WHERE key = ${POOL_ALERT_KEY} OR key LIKE ${floatAlertKey('%')}`,
    ),
  ]);
  const round = (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n * 1000) / 1000);
  const oldestDue = due[0]?.oldest ?? null;
  const earliest = (list: (string | null)[]) =>
    list.reduce<string | null>((a, b) => (a === null || (b !== null && new Date(b) < new Date(a)) ? b : a), null);
  const oldestKyc = earliest(kyc.map((k) => k.oldest));
  return {
    stuckPurchases: {
      count: stuck?.n ?? 0,
      oldestAgeSeconds: seconds(stuck?.oldest ?? null, now),
      stuckAfterSeconds: deps.stuckAfterMs / 1000,
    },
    webhooks: {
      creditedLastHour: webhook?.n ?? 0,
      lagSeconds: { max: round(webhook?.max), avg: round(webhook?.avg) },
      waiting: waiting?.n ?? 0,
      oldestWaitingSeconds: seconds(waiting?.oldest ?? null, now),
    },
    jobs: {
      due: due.reduce((s, q) => s + q.n, 0),
      lagSeconds: seconds(oldestDue, now),
      byQueue: due.map((q) => ({ queue: q.queue, due: q.n, lagSeconds: seconds(q.oldest, now) })),
    },
    deadLetters: {
      total: dead.reduce((s, q) => s + q.n, 0),
      oldestAgeSeconds: seconds(earliest(dead.map((q) => q.oldest)), now),
      byQueue: dead.map((q) => ({ queue: q.queue, count: q.n, oldestAgeSeconds: seconds(q.oldest, now) })),
    },
    kyc: {
      pending: kyc.reduce((s, k) => s + k.n, 0),
      oldestAgeSeconds: seconds(oldestKyc, now),
      byTier: kyc.map((k) => ({ tier: k.tier, pending: k.n, oldestAgeSeconds: seconds(k.oldest, now) })),
    },
    ...people,
    floats: lowFloats(deps.thresholds, balances, raised, now),
  };
}

/**
 * The operator dashboard (issue 30), one read per panel. Every purchase figure is an index-only scan of the range
 * on vtu_transactions_dashboard_idx (created_at first, every column read included: migration 1030); queues come
 * from their partial or status indexes. No statement reads the transactions table outside its range
 * (test/console/dashboard.test.ts checks the plans; docs/scaling.md).
 */
export function createDashboard(deps: DashboardDeps) {
  return {
    volume: (input: { from?: string; to?: string }) => volume(deps, input),
    providers: (input: { from?: string; to?: string }) => providers(deps, input),
    floats: () => floats(deps),
    queues: () => queues(deps),
  };
}

export type Dashboard = ReturnType<typeof createDashboard>;
