import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AlertKind, AlertsConfig } from '../../config-alerts.js';
import { rows, type Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { OperatorRole } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import type { OperatorsService } from '../operators/api.js';
import { createDashboard, floatAlertKey, lowFunds, POOL_ALERT_KEY } from './dashboard.js';

/**
 * The operators' alerts (issue 44): every few minutes, what waits beyond its kind's threshold (ALERT_AFTER_MINUTES),
 * the floats below ALERT_FLOAT_BELOW and the pool below ALERT_POOL_BELOW are e-mailed and pushed to the operators
 * whose role may call the operation that resolves them (the registry's declaration, `operationRoles`). An alert is
 * kept in operator_alerts while it holds, so it is sent once; when it clears its row goes, and it is sent again if
 * it comes back.
 */
export const ALERTS_JOB = 'console.alerts';

export interface AlertsDeps {
  db: Db;
  clock: Clock;
  work: Work;
  config: { alerts: AlertsConfig; publicUrl: string; vtu: { stuckAfterMs: number } };
  operators: Pick<OperatorsService, 'holdersOf'>;
  operationRoles: (operation: string) => readonly OperatorRole[] | null;
}

/** One condition that holds now: its key (a kind, or a kind and its provider), what resolves it, and its words. */
export interface Alert {
  key: string;
  /** The admin operation that resolves it: its declared roles are told. */
  operation: string;
  title: string;
  body: string;
  /** Where in the console the exact list is. */
  path: string;
}

/** The floats and the pool on Catalogue and pricing, with the focus on them. */
const FLOATS_PATH = 'catalogue?section=floats';

const minutes = (seconds: number) => (seconds < 5400 ? `${Math.round(seconds / 60)} minutes` : `${Math.round(seconds / 360) / 10} hours`);

type Queues = Awaited<ReturnType<ReturnType<typeof createDashboard>['queues']>>;
type Floats = Awaited<ReturnType<ReturnType<typeof createDashboard>['floats']>>;

/** A waiting kind past its threshold: `count` waiting, the oldest `age` seconds. */
interface Waiting {
  kind: AlertKind;
  count: number;
  age: number | null;
  operation: string;
  what: string;
  path: string;
}

function waitingOf(q: Queues): Waiting[] {
  return [
    {
      kind: 'approvals',
      count: q.approvals.pending,
      age: q.approvals.oldestAgeSeconds,
      operation: 'adminApproveRequest',
      what: 'money requests wait for a second operator',
      path: 'approvals?status=pending',
    },
    {
      kind: 'kyc',
      count: q.kyc.pending,
      age: q.kyc.oldestAgeSeconds,
      operation: 'adminReviewKyc',
      what: 'KYC submissions wait for a review',
      path: 'kyc',
    },
    {
      kind: 'stuck',
      count: q.stuckPurchases.count,
      age: q.stuckPurchases.oldestAgeSeconds,
      operation: 'adminResolveVtuTransaction',
      what: 'purchases are stuck without an outcome',
      path: 'transactions?view=stuck',
    },
    {
      kind: 'support',
      count: q.support.awaitingReply,
      age: q.support.oldestAwaitingSeconds,
      operation: 'adminReplySupportThread',
      what: 'support threads wait for a reply',
      path: 'support?status=open',
    },
    {
      kind: 'reports',
      count: q.reports.open,
      age: q.reports.oldestAgeSeconds,
      operation: 'adminResolveTransactionReport',
      what: 'transaction reports are open',
      path: 'reports?tab=transactions&status=open',
    },
    {
      kind: 'topups',
      count: q.topups.pending,
      age: q.topups.oldestPendingSeconds,
      operation: 'adminVerifyTopup',
      what: 'top-ups have no outcome from the processor',
      path: 'topups?kind=intents&status=pending&sort=oldest',
    },
    // A dead letter's age counts from when it died (its last failed attempt).
    {
      kind: 'deadLetters',
      count: q.deadLetters.total,
      age: q.deadLetters.oldestAgeSeconds,
      operation: 'adminRetryDeadLetter',
      what: 'deliveries failed for good (dead letters)',
      path: 'dead-letters',
    },
  ];
}

/** What holds now: waiting work past its threshold, floats and the pool below theirs. */
export function dueAlerts(config: AlertsConfig, q: Queues, f: Floats): Alert[] {
  const out: Alert[] = [];
  for (const w of waitingOf(q)) {
    if (w.count === 0 || w.age === null || w.age * 1000 < config.afterMs[w.kind]) continue;
    const oldest = `; the oldest for ${minutes(w.age)}`;
    out.push({
      key: w.kind,
      operation: w.operation,
      title: `Waiting too long: ${w.count} ${w.kind === 'deadLetters' ? 'dead letters' : w.kind}`,
      body: `${w.count} ${w.what}${oldest}.`,
      path: w.path,
    });
  }
  // The dashboard's tile counts the same floats and pool (lowFunds: one rule).
  const { low, poolLow } = lowFunds(
    config,
    f.items.map((i) => ({ provider: i.provider, balance: toKobo(i.balance) })),
    toKobo(f.collections.balance),
  );
  for (const i of f.items) {
    if (!low.includes(i.provider)) continue;
    out.push({
      key: floatAlertKey(i.provider),
      operation: 'adminFundProviderFloat',
      title: `Low float: provider ${i.provider.toUpperCase()} at ${formatNaira(toKobo(i.balance))}`,
      body: `Provider ${i.provider.toUpperCase()}'s float is ${formatNaira(toKobo(i.balance))}, below ${formatNaira(config.floatBelow)}; purchases through it wait for funding.`,
      path: FLOATS_PATH,
    });
  }
  if (poolLow)
    out.push({
      key: POOL_ALERT_KEY,
      operation: 'adminFundProviderFloat',
      title: `Low collections pool: ${formatNaira(toKobo(f.collections.balance))}`,
      body: `The collections pool is ${formatNaira(toKobo(f.collections.balance))}, below ${formatNaira(config.poolBelow)}: the floats cannot be funded from it.`,
      path: FLOATS_PATH,
    });
  return out;
}

/**
 * One run: reads what holds, forgets the alerts that cleared, keeps the new ones and notifies their operators in the
 * same transaction (a rolled-back run notifies nobody and is run again). Answers the keys raised this run.
 */
export async function runAlerts(deps: AlertsDeps): Promise<string[]> {
  const { db, clock, work, config } = deps;
  const dashboard = createDashboard({ db, clock, stuckAfterMs: config.vtu.stuckAfterMs, thresholds: config.alerts });
  const [q, f] = await Promise.all([dashboard.queues(), dashboard.floats()]);
  const due = dueAlerts(config.alerts, q, f);
  const keys = `{${due.map((a) => `"${a.key}"`).join(',')}}`;
  // Who is told, read before the transaction (on PGlite a read beside an open transaction waits for it).
  const told = new Map<string, { userId: string }[]>();
  for (const a of due) {
    const roles = deps.operationRoles(a.operation);
    if (!roles) throw new Error(`alert ${a.key}: ${a.operation} is no admin operation`);
    told.set(a.key, await deps.operators.holdersOf(roles));
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM operator_alerts WHERE NOT (key = ANY(${keys}::text[]))`);
    if (!due.length) return [];
    const raised = await rows<{ key: string }>(
      tx,
      sql`INSERT INTO operator_alerts (key, raised_at, title)
          SELECT a.key, ${clock.now()}, a.title FROM jsonb_to_recordset(${JSON.stringify(due)}::jsonb) AS a(key text, title text)
          ON CONFLICT (key) DO NOTHING RETURNING key`,
    );
    const fresh = due.filter((a) => raised.some((r) => r.key === a.key));
    const change = work.change(tx);
    for (const a of fresh)
      for (const who of told.get(a.key) ?? [])
        change.notify({
          userId: who.userId,
          kind: 'operator_alert',
          title: a.title,
          body: `${a.body}\n\nOpen it in the console: ${config.publicUrl}/console/${a.path}`,
          data: { alert: a.key, operation: a.operation },
        });
    await change.commit();
    return fresh.map((a) => a.key);
  });
}

/** Every ALERT_EVERY_MS (5 minutes by default), in a slot of its own so several instances run it once. */
export function registerAlerts(services: AlertsDeps & { jobs: JobQueue }) {
  services.jobs.register({
    name: ALERTS_JOB,
    payload: z.object({}),
    maxAttempts: 3,
    backoffMs: 30_000,
    handler: async () => void (await runAlerts(services)),
  });
  services.jobs.schedule({ job: ALERTS_JOB, everyMs: services.config.alerts.everyMs });
}
