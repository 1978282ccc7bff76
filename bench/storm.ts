import { randomUUID } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { rows, type Db } from '../src/db/client.js';
import { verifyLedger } from '../src/ledger/verify.js';
import { airtimeRequest, prepareBuyers, VTU_CONNECTIONS } from './buy-airtime.js';
import { cpuCost, cpuSnapshot } from './cpu.js';
import { cannon, freshDatabase, startServer, type Result, type Server } from './lib.js';
import { chargeSuccess, seedIntents, webhookPoster } from './webhooks.js';

/**
 * The webhook storm (issue 42, item 6): one service process as `npm start` runs it (API and job worker together), its
 * VTU simulators in a process of their own. A burst of buyAirtime for BENCH_BURST_SECONDS (15) at the VTU
 * concurrency leaves its background work (notifications, e-mails, growth) queued; right after it, signed
 * charge.success webhooks are offered open-loop at BENCH_STORM_RATE (1,000) a second for BENCH_STORM_SECONDS (15).
 * Measured: how many the service acknowledged (200) and refused (429/503 with Retry-After; anything else is an
 * error), the refusals' own latency, and for EVERY acknowledged webhook the time from its acknowledgement to its
 * credit being visible in the ledger (the posting `payin:<processor>:<reference>`, the wallet's balance; polled every
 * 20 ms), and from its sending. Met: ack-to-credited p99 < 1 s, every credit seen, every refusal a 429/503 with
 * Retry-After. Run alone: `npx tsx bench/storm.ts`; `BENCH_ONLY=storm npm run bench` in the bench.
 */
const BURST_SECONDS = Number(process.env.BENCH_BURST_SECONDS ?? 15);
const RATE = Number(process.env.BENCH_STORM_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 15);
const USERS = Number(process.env.BENCH_STORM_USERS ?? 100);
const POLL_MS = 20;

export interface StormResult {
  rows: Result[];
  lines: string[];
  acknowledged: number;
  refused: number;
  /** Acknowledgement to credit visible, ms (Infinity: some never seen within 30 s). */
  p50: number;
  p99: number;
  met: boolean;
  rssMb: number;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]);
};
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Background jobs due and not done, by queue (what the burst left still draining). */
const dueByQueue = (db: Db) =>
  rows<{ queue: string; n: number }>(
    db,
    sql`SELECT queue, count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') AND run_at <= now() GROUP BY queue ORDER BY n DESC`,
  );

/** Polls the ledger for the credits of acknowledged webhooks until each is seen or `until()` says stop. */
function creditWatcher(db: Db, processor: string) {
  const waiting = new Map<string, { sentAt: number; ackAt: number }>();
  const fromAck: number[] = [];
  const fromSend: number[] = [];
  let open = true;
  const done = (async () => {
    let deadline = Infinity;
    while (open || (waiting.size && performance.now() < deadline)) {
      if (!open && deadline === Infinity) deadline = performance.now() + 30_000;
      if (waiting.size) {
        const refs = [...waiting.keys()].map((r) => `payin:${processor}:${r}`);
        const seen = await rows<{ reference: string }>(
          db,
          sql`SELECT reference FROM ledger_transactions WHERE reference = ANY(${`{${refs.join(',')}}`}::text[])`,
        );
        const now = performance.now();
        for (const { reference } of seen) {
          const ref = reference.slice(`payin:${processor}:`.length);
          const w = waiting.get(ref)!;
          fromAck.push(now - w.ackAt);
          fromSend.push(now - w.sentAt);
          waiting.delete(ref);
        }
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();
  return {
    acknowledged: (reference: string, sentAt: number, ackAt: number) => waiting.set(reference, { sentAt, ackAt }),
    finish: async () => {
      open = false;
      await done;
      return { fromAck, fromSend, unseen: waiting.size };
    },
  };
}

/** The storm itself: RATE webhooks a second for SECONDS, open loop, each acknowledged one watched until credited. */
async function storm(svc: Server, db: Db, refs: string[]) {
  const config = loadConfig({ ...process.env, SANDBOX: 'true', NODE_ENV: 'development' });
  const processor = config.processor.default;
  const { post, agent } = webhookPoster(svc, config.processor.secretKey);
  const watcher = creditWatcher(db, processor);
  const codes = new Map<number, number>();
  const acks: number[] = [];
  const refusals: number[] = [];
  let bare = 0;
  const sends: Promise<void>[] = [];
  const started = performance.now();
  let sent = 0;
  while (performance.now() - started < SECONDS * 1000) {
    const due = Math.min(refs.length, Math.floor(((performance.now() - started) / 1000) * RATE));
    for (; sent < due; sent++) {
      const reference = refs[sent];
      const t0 = performance.now();
      sends.push(
        post(chargeSuccess(reference)).then(({ code, retryAfter }) => {
          const t1 = performance.now();
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (code === 200) {
            acks.push(t1 - t0);
            watcher.acknowledged(reference, t0, t1);
          } else if (code === 429 || code === 503) {
            refusals.push(t1 - t0);
            if (!retryAfter) bare++;
          }
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(sends);
  const credits = await watcher.finish();
  agent.destroy();
  return { sent, codes, acks, refusals, bare, ...credits };
}

export async function stormStage(): Promise<StormResult> {
  const db = await freshDatabase('benchstorm');
  const servers: Server[] = [];
  try {
    const env = { DATABASE_URL: db.url, SANDBOX: 'true', JOBS_ENABLED: 'false', NODE_ENV: 'development', VTU_PROVIDER_TIMEOUT_MS: '10000' };
    const simulator = await startServer('bench/vtu-server.ts', env);
    servers.push(simulator);
    const providers = Object.fromEntries(
      ['A', 'B', 'C', 'D'].map((p) => [`VTU_PROVIDER_${p}_URL`, `${simulator.url}/sandbox/providers/${p.toLowerCase()}`]),
    );
    const svc = await startServer('bench/vtu-server.ts', { ...env, ...providers, JOBS_ENABLED: 'true' });
    servers.push(svc);
    const { users, database } = await prepareBuyers(svc, db.url, USERS, 'storm');
    try {
      const config = loadConfig({ ...process.env, SANDBOX: 'true', NODE_ENV: 'development' });
      const refs = Array.from({ length: RATE * SECONDS }, () => `bench_storm_${randomUUID().replace(/-/g, '').slice(0, 16)}`);
      await seedIntents(database.db, refs, users, config.processor.default);
      let n = 0;
      const buy = (req: any) => ({ ...req, ...airtimeRequest(users[n++ % users.length]) });
      await cannon('warm-up', { url: svc.url, connections: 8, amount: 200, requests: [{ setupRequest: buy }] } as autocannon.Options);
      const loadAtBurst = load();
      const b = await autocannon({
        url: svc.url,
        connections: VTU_CONNECTIONS,
        duration: BURST_SECONDS,
        requests: [{ setupRequest: buy }],
      });
      const purchases = b.requests.total - b.non2xx - b.errors - b.timeouts;
      const left = await dueByQueue(database.db);
      const cpuBefore = cpuSnapshot(svc.child.pid);
      const s = await storm(svc, database.db, refs);
      const cpu = cpuCost(cpuBefore, cpuSnapshot(svc.child.pid), s.sent);
      const leftAfter = await dueByQueue(database.db);
      const bySecond = await rows<{ s: number; n: number; p50: number; p99: number }>(
        database.db,
        sql`SELECT s::int, count(*)::int AS n, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int AS p50,
                   round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms))::int AS p99
            FROM (SELECT floor(extract(epoch FROM received_at - min(received_at) OVER ())) AS s,
                         extract(epoch FROM processed_at - received_at) * 1000 AS ms
                  FROM processor_events WHERE status = 'credited') e GROUP BY s ORDER BY s`,
      );
      const report = await verifyLedger(database.db);
      if (report.breaches.length) throw new Error(`ledger breaches after the storm: ${JSON.stringify(report.breaches)}`);
      const ok = s.codes.get(200) ?? 0;
      const refused = (s.codes.get(429) ?? 0) + (s.codes.get(503) ?? 0);
      const other = s.sent - ok - refused;
      const p99 = s.unseen ? Infinity : pct(s.fromAck, 99);
      const met = p99 < 1000 && other === 0 && s.bare === 0;
      const jobs = (l: { queue: string; n: number }[]) => (l.length ? l.map((q) => `${q.queue} ${q.n}`).join(', ') : 'none');
      const row: Result = {
        name: `webhook storm ${RATE}/s for ${SECONDS} s after a ${BURST_SECONDS} s purchase burst (load ${loadAtBurst})`,
        rps: Math.round(ok / SECONDS),
        p50: pct(s.acks, 50),
        p99: pct(s.acks, 99),
        errors: other,
        total: s.sent,
        ratio: `acknowledged ${ok}, refused ${refused} (refusal p99 ${pct(s.refusals, 99)} ms${s.bare ? `, ${s.bare} without Retry-After` : ''}); ack to credited p50 ${pct(s.fromAck, 50)} ms, p99 ${p99 === Infinity ? `> 30 s (${s.unseen} unseen)` : `${p99} ms`}; send to credited p99 ${pct(s.fromSend, 99)} ms; p99 < 1 s`,
        met,
      };
      const lines = [
        `webhook storm: burst of ${purchases} purchases in ${BURST_SECONDS} s (${Math.round(b.requests.average)}/s) left due: ${jobs(left)}`,
        `  storm: ${s.sent} sent at ${RATE}/s, ${ok} acknowledged, ${refused} refused, ${other} other; ack to credited p50 ${pct(s.fromAck, 50)} ms, p99 ${p99 === Infinity ? '> 30 s' : `${p99} ms`}; still due after it: ${jobs(leftAfter)}; service CPU ${cpu?.server ?? '?'} ms per webhook sent (PostgreSQL ${cpu?.postgres ?? '?'} ms); ledger ok; load average at end ${load()}`,
        `  stored to credited (the server's clock) by second of the storm, count p50/p99 ms: ${bySecond.map((r) => `${r.s}s ${r.n} ${r.p50}/${r.p99}`).join(', ')}`,
      ];
      return { rows: [row], lines, acknowledged: ok, refused, p50: pct(s.fromAck, 50), p99, met, rssMb: svc.peakRssMb() };
    } finally {
      await database.close();
    }
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await stormStage();
  console.log(JSON.stringify(r.rows[0], null, 1));
  console.log(r.lines.join('\n'));
}
