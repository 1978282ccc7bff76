import { randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { openDatabase, rows, type Db } from '../src/db/client.js';
import { verifyLedger } from '../src/ledger/verify.js';
import { signProcessorPayload } from '../src/providers/processor.js';
import { DURATION, freshDatabase, startServer, type Result, type Server } from './lib.js';

/**
 * The webhook stage (issue 31): signed charge.success webhooks for pending top-up intents offered open-loop at
 * rising rates (BENCH_WEBHOOK_RATES, default 100,200,400,800 per second; BENCH_SECONDS each) to one service process
 * running its job worker, as `npm start`. Per rate: the acknowledgement's p99, the share answered 429 (the service
 * pushing back while credits are behind; a processor retries those after Retry-After, the bench does not), and the
 * credit-visible p99 over sampled accepted webhooks: from sending the webhook to its top-up reading 'success' in the
 * database (polled every 20 ms). Then the highest rate whose credit p99 stayed under 1 s.
 */
const RATES = (process.env.BENCH_WEBHOOK_RATES ?? '100,200,400,800').split(',').map(Number);
const SAMPLE_EVERY = 5;
const POLL_MS = 20;

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

/** A pending top-up intent of NGN 1,000 for each reference, the users taking turns (what a webhook credits). */
export async function seedIntents(db: Db, refs: string[], users: { userId: string }[], processor: string) {
  for (let i = 0; i < refs.length; i += 1000) {
    await db.execute(sql`INSERT INTO topup_intents (id, user_id, reference, processor, amount, status, origin, email, created_at, updated_at)
      SELECT gen_random_uuid(), (${JSON.stringify(users.map((u) => u.userId))}::jsonb ->> (ord % ${users.length})::int)::uuid, ref, ${processor}, 100000, 'pending', 'intent', 'bench@example.com', now(), now()
      FROM jsonb_array_elements_text(${JSON.stringify(refs.slice(i, i + 1000))}::jsonb) WITH ORDINALITY AS t(ref, ord)`);
  }
}

/** A signed charge.success body for a reference of NGN 1,000 (seedIntents'). */
export const chargeSuccess = (reference: string) =>
  JSON.stringify({
    event: 'charge.success',
    data: { reference, amount: 100000, status: 'success', currency: 'NGN', channel: 'card', paid_at: new Date().toISOString() },
  });

/** Posts signed webhook bodies to the service: the status, and for a refusal whether it says when to retry (Retry-After). */
export function webhookPoster(svc: Server, secret: string) {
  const target = new URL(svc.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const post = (body: string) =>
    new Promise<{ code: number; retryAfter: boolean }>((resolve) => {
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: '/api/public/payments/webhook/processor',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'x-processor-signature': signProcessorPayload(secret, body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ code: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after']) > 0 }));
        },
      );
      req.on('error', () => resolve({ code: 0, retryAfter: false }));
      req.end(body);
    });
  return { post, agent };
}

export async function webhookStage(opts: {
  serviceEnv: (url: string, jobs: boolean) => Record<string, string>;
  signInMany: (svc: Server, n: number, prefix: string) => Promise<{ userId: string }[]>;
}): Promise<{ rows: Result[]; lines: string[]; rssMb: number; best: number | null; allMet: boolean; rates: number[] }> {
  const db = await freshDatabase();
  const svc = await startServer('bench/service-server.ts', opts.serviceEnv(db.url, true));
  const database = await openDatabase({ url: db.url, dataDir: '/tmp' });
  try {
    const config = loadConfig({ ...process.env, SANDBOX: 'true', NODE_ENV: 'development' });
    const processor = config.processor.default;
    const secret = config.processor.secretKey;
    const users = await opts.signInMany(svc, 32, 'hook');
    const total = RATES.reduce((a, r) => a + r * DURATION, 0);
    const refs = Array.from({ length: total }, () => `bench_topup_${randomUUID().replace(/-/g, '').slice(0, 16)}`);
    await seedIntents(database.db, refs, users, processor);
    const { post, agent } = webhookPoster(svc, secret);

    const out: Result[] = [];
    const lines: string[] = [];
    let best: number | null = null;
    let allMet = true;
    let next = 0;
    for (const rate of RATES) {
      const acks: number[] = [];
      const codes = new Map<number, number>();
      const sampled = new Map<string, number>();
      const visible: number[] = [];
      const sends: Promise<void>[] = [];
      let bare429 = 0;
      const loadBefore = load();
      const queriesBefore = await svc.queries();
      let sending = true;
      // Credit visibility of the sampled accepted webhooks, polled while they are sent and after (at most 30 s more).
      const poller = (async () => {
        let deadline = Infinity;
        while (sending || (sampled.size && performance.now() < deadline)) {
          if (!sending && deadline === Infinity) deadline = performance.now() + 30_000;
          if (sampled.size) {
            const seen = await rows<{ reference: string }>(
              database.db,
              sql`SELECT reference FROM topup_intents WHERE reference = ANY(${`{${[...sampled.keys()].join(',')}}`}::text[]) AND status = 'success'`,
            );
            const now = performance.now();
            for (const s of seen) {
              visible.push(now - sampled.get(s.reference)!);
              sampled.delete(s.reference);
            }
          }
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      })();
      const started = performance.now();
      let sent = 0;
      // Open loop: whatever the answers take, `rate` webhooks a second are offered.
      while (performance.now() - started < DURATION * 1000) {
        const due = Math.floor(((performance.now() - started) / 1000) * rate);
        for (; sent < due; sent++) {
          const reference = refs[next++];
          const body = chargeSuccess(reference);
          const t0 = performance.now();
          const sample = sent % SAMPLE_EVERY === 0;
          sends.push(
            post(body).then(({ code, retryAfter }) => {
              acks.push(performance.now() - t0);
              if (code === 429 && !retryAfter) bare429++;
              codes.set(code, (codes.get(code) ?? 0) + 1);
              if (code === 200 && sample) sampled.set(reference, t0);
            }),
          );
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.all(sends);
      sending = false;
      await poller;
      // The next rate starts on an empty backlog.
      for (let i = 0; i < 300; i++) {
        const [{ n }] = await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'payments.processEvent' AND status IN ('queued', 'running')`,
        );
        if (!n) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const queries = (await svc.queries()) - queriesBefore;
      const ok = codes.get(200) ?? 0;
      const refused = codes.get(429) ?? 0;
      const other = sent - ok - refused;
      const creditP99 = sampled.size ? Infinity : pct(visible, 99);
      // Met: accepted credits visible within 1 s, and everything else pushed back with a 429 that carries Retry-After.
      const met = creditP99 < 1000 && other === 0 && bare429 === 0;
      allMet &&= met;
      if (met) best = Math.max(best ?? 0, rate);
      out.push({
        name: `webhooks offered at ${rate}/s (load ${loadBefore})`,
        rps: Math.round(ok / DURATION),
        p50: pct(acks, 50),
        p99: pct(acks, 99),
        errors: other,
        // The service's database round trips per accepted webhook (acknowledgement, credit and what the credit
        // enqueues, plus the refused ones' duplicate checks).
        roundTrips: ok ? Math.round((queries / ok) * 10) / 10 : undefined,
        ratio: `429: ${Math.round((refused / sent) * 100)}%${bare429 ? ` (${bare429} without Retry-After)` : ''}; credit visible p50 ${pct(visible, 50)} ms, p99 ${creditP99 === Infinity ? `> 30 s (${sampled.size} of ${visible.length + sampled.size} unseen)` : `${creditP99} ms`} (${visible.length} sampled); p99 < 1 s`,
        met,
      });
    }
    lines.push(
      `webhooks: highest offered rate with credit visible p99 < 1 s: ${best === null ? 'none' : `${best}/s`} (rates ${RATES.join(', ')}/s, ${DURATION} s each; load average at end ${load()})`,
    );
    const report = await verifyLedger(database.db);
    if (report.breaches.length) throw new Error(`ledger breaches after webhooks: ${JSON.stringify(report.breaches)}`);
    agent.destroy();
    return { rows: out, lines, rssMb: svc.peakRssMb(), best, allMet, rates: RATES };
  } finally {
    await database.close();
    await svc.stop();
    await db.drop();
  }
}
