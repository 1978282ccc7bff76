import { sql } from 'drizzle-orm';
import client from 'prom-client';
import { rows, type Db } from '../db/client.js';
import type { ReadReplica } from '../db/replica.js';
import type { Clock } from '../kernel/clock.js';
import { processMetrics } from '../lib/metrics.js';
import { FLOAT_CODES, balancesStatement } from '../modules/console/api.js';
import { processingPurchases, purchaseCounts } from '../modules/vtu/api.js';

/** Business gauges are read from the database at most this often (service clock), whatever the scrape rate. */
const SNAPSHOT_TTL_MS = 5_000;
const DAY_MS = 24 * 3600 * 1000;

interface Snapshot {
  purchases: { service: string; provider: string; status: string; n: number }[];
  processing: number;
  stuck: number;
  floats: { code: string; balance: string }[];
  lag: { max: number | null; avg: number | null; n: number };
  backlog: { queue: string; n: number; oldest: Date | null }[];
  dead: { queue: string; n: number }[];
  sms: { provider: string; status: string; n: number }[];
  otp: { purpose: string; n: number }[];
}

type MetricsDeps = { db: Db; clock: Clock; stuckAfterMs: number; replica?: ReadReplica };
type Gauge = (name: string, help: string, labelNames: string[], fill: (g: client.Gauge, s: Snapshot) => void) => void;

async function readSnapshot(deps: MetricsDeps): Promise<Snapshot> {
  const { db } = deps;
  const now = deps.clock.now();
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const hourAgo = new Date(now.getTime() - 3600_000);
  const stuckBefore = new Date(now.getTime() - deps.stuckAfterMs);
  const floatCodes = FLOAT_CODES;
  const [purchases, processing, floats, lag, backlog, dead, sms, otp] = await Promise.all([
    purchaseCounts(db, dayAgo),
    processingPurchases(db, stuckBefore),
    // System accounts keep no balance column: the console's snapshot plus the entries after it (migration 1030).
    rows<Snapshot['floats'][number]>(db, balancesStatement(floatCodes)),
    rows<{ max: number | null; avg: number | null; n: number }>(
      db,
      sql`SELECT max(extract(epoch FROM processed_at - received_at))::float8 AS max, avg(extract(epoch FROM processed_at - received_at))::float8 AS avg, count(*)::int AS n
          FROM processor_events WHERE status = 'credited' AND received_at > ${hourAgo}`,
    ),
    rows<Snapshot['backlog'][number]>(
      db,
      sql`SELECT queue, count(*)::int AS n, min(run_at) AS oldest FROM jobs WHERE status = 'queued' AND run_at <= ${now} GROUP BY queue`,
    ),
    rows<Snapshot['dead'][number]>(db, sql`SELECT queue, count(*)::int AS n FROM jobs WHERE status = 'dead' GROUP BY queue`),
    rows<Snapshot['sms'][number]>(
      db,
      sql`SELECT provider, status, count(*)::int AS n FROM sms_messages WHERE status IN ('sent', 'delivered', 'failed') AND created_at > ${dayAgo} GROUP BY 1, 2`,
    ),
    rows<Snapshot['otp'][number]>(db, sql`SELECT purpose, count(*)::int AS n FROM otp_codes WHERE created_at > ${dayAgo} GROUP BY purpose`),
  ]);
  return {
    purchases,
    processing: processing.processing,
    stuck: processing.stuck,
    floats,
    lag: lag[0] ?? { max: null, avg: null, n: 0 },
    backlog,
    dead,
    sms,
    otp,
  };
}

/** Purchases, provider floats, the collections pool and the webhook credit lag. */
function addMoneyGauges(gauge: Gauge) {
  gauge(
    'vtu_purchases_24h',
    'Purchases created in the last 24 hours by service, provider and status',
    ['service', 'provider', 'status'],
    (g, s) => {
      for (const r of s.purchases) g.set({ service: r.service, provider: r.provider, status: r.status }, r.n);
    },
  );
  gauge('vtu_purchases_processing', 'Purchases waiting for their final status', [], (g, s) => g.set(s.processing));
  gauge('vtu_purchases_stuck', 'Purchases still processing after VTU_STUCK_AFTER_MS', [], (g, s) => g.set(s.stuck));
  gauge('vtu_provider_float_naira', 'Money prefunded to each VTU provider, on our ledger', ['provider'], (g, s) => {
    for (const f of s.floats)
      if (f.code.startsWith('system:provider_float:'))
        // The float account is the provider's debt in our books (funding debits it): the float is its negation.
        g.set({ provider: f.code.slice('system:provider_float:'.length) }, -Number(f.balance) / 100 || 0);
  });
  gauge('collections_pool_naira', 'The collections pool that funds provider floats just in time', [], (g, s) => {
    const pool = s.floats.find((f) => f.code === 'system:collections');
    g.set(pool ? -Number(pool.balance) / 100 || 0 : 0);
  });
  gauge(
    'webhook_credit_lag_seconds',
    'Processor webhook receipt to wallet credit, events of the last hour (max, avg)',
    ['stat'],
    (g, s) => {
      if (!s.lag.n) return;
      g.set({ stat: 'max' }, s.lag.max ?? 0);
      g.set({ stat: 'avg' }, s.lag.avg ?? 0);
    },
  );
}

/** The job queue's backlog and dead letters, SMS results and one-time codes issued. */
function addQueueGauges(gauge: Gauge, clock: Clock) {
  gauge('jobs_backlog', 'Jobs due and not yet started, by queue', ['queue'], (g, s) => {
    for (const b of s.backlog) g.set({ queue: b.queue }, b.n);
  });
  gauge('jobs_oldest_due_age_seconds', 'Age of the oldest due job, by queue', ['queue'], (g, s) => {
    const now = clock.now().getTime();
    for (const b of s.backlog) if (b.oldest) g.set({ queue: b.queue }, Math.max(0, (now - new Date(b.oldest).getTime()) / 1000));
  });
  gauge('jobs_dead_letters', 'Jobs that used every attempt (operators retry them: adminListDeadLetters)', ['queue'], (g, s) => {
    for (const d of s.dead) g.set({ queue: d.queue }, d.n);
  });
  gauge('sms_messages_24h', 'SMS of the last 24 hours by gateway and delivery status', ['provider', 'status'], (g, s) => {
    for (const m of s.sms) g.set({ provider: m.provider, status: m.status }, m.n);
  });
  gauge(
    'otp_codes_issued_24h',
    'One-time codes issued in the last 24 hours by purpose (e-mail sign-in, phone, step-up)',
    ['purpose'],
    (g, s) => {
      for (const o of s.otp) g.set({ purpose: o.purpose }, o.n);
    },
  );
}

/** With DATABASE_READ_URL: where lag-tolerant reads go, and how far behind the replica is (src/db/replica.ts). */
function addReplicaGauges(registry: client.Registry, replica: ReadReplica) {
  new client.Gauge({
    name: 'db_read_replica_in_use',
    help: '1 while lag-tolerant reads go to the read replica, 0 while the primary takes them (replica down or too far behind)',
    registers: [registry],
    collect() {
      this.set(replica.status().target === 'replica' ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'db_read_replica_lag_seconds',
    help: 'The read replica holds everything committed on the primary before this many seconds ago (probed every second)',
    registers: [registry],
    collect() {
      const lag = replica.status().lagMs;
      if (lag !== null) this.set(lag / 1000);
    },
  });
}

/**
 * /metrics: HTTP latency per operation, process metrics, upstream latency and SMS sends
 * (src/lib/metrics.ts), and business gauges read from the database on scrape: purchases of the last 24 h by
 * service, provider and status; processing and stuck purchases; provider floats and the collections pool; the
 * webhook receipt-to-credit lag of the last hour; job backlog, oldest due job and dead letters by queue; SMS
 * delivery results and one-time codes issued in the last 24 h. Every query is bounded by an index.
 */
export function createMetrics(deps: MetricsDeps) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const latency = new client.Histogram({
    name: 'http_operation_duration_seconds',
    help: 'Latency per operation and status',
    labelNames: ['operation', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  let cached: { at: number; value: Promise<Snapshot> } | null = null;
  const snapshot = () => {
    const now = deps.clock.now().getTime();
    if (!cached || now - cached.at > SNAPSHOT_TTL_MS) cached = { at: now, value: readSnapshot(deps) };
    return cached.value;
  };
  const gauge: Gauge = (name, help, labelNames, fill) =>
    void new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        fill(this, await snapshot());
      },
    });
  addMoneyGauges(gauge);
  addQueueGauges(gauge, deps.clock);
  if (deps.replica?.configured) addReplicaGauges(registry, deps.replica);

  const merged = client.Registry.merge([registry, processMetrics]);
  return { registry: merged, latency };
}
