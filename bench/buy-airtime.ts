import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, rows } from '../src/db/client.js';
import { createLedger } from '../src/ledger/ledger.js';
import { verifyLedger } from '../src/ledger/verify.js';
import { systemClock } from '../src/kernel/clock.js';
import { cpuCost, cpuSnapshot } from './cpu.js';
import {
  cannon,
  freshDatabase,
  json,
  measured,
  profileArgs,
  setPinOver,
  signInOver,
  startServer,
  table,
  type Result,
  type Server,
} from './lib.js';

/**
 * Full-API VTU purchases against a listening server on PostgreSQL (loopback only, bounded by BENCH_SECONDS),
 * with the provider simulators reached over real HTTP. Many users (BENCH_VTU_USERS, 200), each with a PIN,
 * Tier 3 and money. Two runs:
 *   spread       - buyAirtime (provider C), buyData (A) and fundBet (D) in rotation
 *   one provider - buyAirtime only, every purchase on provider C
 * The second must keep >= 80% of the first: no provider float is a serialisation point.
 * The provider simulators run in a process of their own on the same database (the service reaches them through
 * VTU_PROVIDER_*_URL, as it would reach real providers), so the service's CPU per purchase is the service's alone;
 * BENCH_VTU_SIMULATOR=inline serves them from the service process itself, as the earlier rounds measured.
 * Run alone: `npx tsx bench/buy-airtime.ts`; exported for bench/run.ts.
 */
const USERS = Number(process.env.BENCH_VTU_USERS ?? 200);
export const VTU_CONNECTIONS = Number(process.env.BENCH_VTU_CONNECTIONS ?? 32);
const SIMULATOR_INLINE = process.env.BENCH_VTU_SIMULATOR === 'inline';

const safePhone = () =>
  `0803${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}12${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;

/** Peak RSS (MB) of the VTU bench's service process in the last run. */
export let vtuPeakRssMb = 0;
/** Ledger invariant breaches found after the VTU bench's last run (verifyLedger). */
export let vtuLedgerBreaches = 0;

/**
 * `n` users signed in over the API, each with PIN 1234 (set through the step-up flow), Tier 3 and NGN 1,000,000:
 * what a purchase needs. Returns them with an open database on the same PostgreSQL (closed by the caller).
 */
export async function prepareBuyers(svc: Server, dbUrl: string, n: number, prefix: string) {
  const users: { token: string; userId: string; email: string }[] = [];
  for (let i = 0; i < n; i += 20) {
    users.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, n - i) }, (_, j) =>
          signInOver(svc.url, `${prefix}${i + j}-${randomUUID().slice(0, 6)}@example.com`),
        ),
      )),
    );
  }
  for (const u of users) {
    await setPinOver(svc.url, u, '1234');
  }
  const database = await openDatabase({ url: dbUrl, dataDir: '/tmp' });
  const ledger = createLedger({ clock: systemClock });
  await database.db.execute(sql`UPDATE users SET kyc_tier = 3`);
  for (const u of users) {
    await database.db.transaction((tx) =>
      ledger.post(tx, {
        reference: `bench_fund_${u.userId}`,
        type: 'adjustment',
        description: 'benchmark funding',
        entries: [
          { account: { user: u.userId, kind: 'wallet' }, amount: 100_000_000n },
          { account: { system: 'adjustments' }, amount: -100_000_000n },
        ],
      }),
    );
  }
  return { users, database };
}

/** One buyAirtime request (autocannon request fields) for `user`: NGN 100 of MTN airtime to a sandbox number. */
export function airtimeRequest(user: { token: string }) {
  return {
    method: 'POST' as const,
    path: '/api/v1/buyAirtime',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { network: 'mtn', phone: safePhone(), amount: 100, pin: '1234' } }),
  };
}

export async function buyAirtimeBench(): Promise<(Result & { ratio?: string })[]> {
  const db = await freshDatabase('benchvtu');
  const out: (Result & { ratio?: string })[] = [];
  let simulator: Server | null = null;
  try {
    const env = { DATABASE_URL: db.url, SANDBOX: 'true', JOBS_ENABLED: 'false', NODE_ENV: 'development', VTU_PROVIDER_TIMEOUT_MS: '10000' };
    simulator = SIMULATOR_INLINE ? null : await startServer('bench/vtu-server.ts', env);
    const simulatorUrl = simulator?.url;
    const providerUrls: Record<string, string> = simulatorUrl
      ? Object.fromEntries(
          ['A', 'B', 'C', 'D'].map((p) => [`VTU_PROVIDER_${p}_URL`, `${simulatorUrl}/sandbox/providers/${p.toLowerCase()}`]),
        )
      : {};
    const svc = await startServer('bench/vtu-server.ts', { ...env, ...providerUrls }, profileArgs());
    /** The simulator process's CPU per purchase over a run, when it has its own process. */
    const simulatorCpu = async (run: () => Promise<Result>) => {
      const before = cpuSnapshot(simulator?.child.pid);
      const r = await run();
      const pid = simulator?.child.pid;
      const cost = pid && r.total ? cpuCost(before, cpuSnapshot(pid), r.total) : undefined;
      return { r, ms: cost?.server ?? null };
    };
    try {
      const { users, database } = await prepareBuyers(svc, db.url, USERS, 'vtu');
      const plans = await json(`${svc.url}/api/v1/listDataPlans?network=mtn`, undefined, { authorization: `Bearer ${users[0].token}` });
      const plan = plans.items[0];

      let n = 0;
      const nextUser = () => users[n++ % users.length];
      const purchase = (kind: 'airtime' | 'data' | 'bet') => {
        const u = nextUser();
        if (kind === 'airtime') return airtimeRequest(u);
        const headers = { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' };
        if (kind === 'data')
          return {
            method: 'POST' as const,
            path: '/api/v1/buyData',
            headers,
            body: JSON.stringify({ data: { network: 'mtn', plan_id: plan.plan_id, phone: safePhone(), amount: plan.price, pin: '1234' } }),
          };
        return {
          method: 'POST' as const,
          path: '/api/v1/fundBet',
          headers,
          body: JSON.stringify({
            data: {
              betting_company: 'bet9ja',
              customer_id: `BK${String(Math.floor(Math.random() * 100)).padStart(2, '0')}12`,
              amount: 100,
              pin: '1234',
            },
          }),
        };
      };
      const kinds = ['airtime', 'data', 'bet'] as const;
      let k = 0;
      // Warm-up: first purchases fund the provider floats just in time and fill the catalogue cache.
      await cannon('warm-up', {
        url: svc.url,
        connections: 8,
        amount: 300,
        requests: [{ setupRequest: (req: any) => ({ ...req, ...purchase(kinds[k++ % 3]) }) }],
      } as any);

      const where = simulator ? 'simulators in their own process' : 'simulators in the service process';
      const { r: spread, ms: spreadSim } = await simulatorCpu(() =>
        measured(svc, `VTU purchases spread over providers A, C, D (${USERS} users; ${where})`, {
          url: svc.url,
          connections: VTU_CONNECTIONS,
          requests: [{ setupRequest: (req: any) => ({ ...req, ...purchase(kinds[k++ % 3]) }) }],
        } as any),
      );
      out.push(spread);
      const { r: one, ms: oneSim } = await simulatorCpu(() =>
        measured(
          svc,
          `buyAirtime, all on provider C (${USERS} users; ${where})`,
          {
            url: svc.url,
            connections: VTU_CONNECTIONS,
            requests: [{ setupRequest: (req: any) => ({ ...req, ...purchase('airtime') }) }],
          } as any,
          'buyAirtime',
        ),
      );
      out.push({ ...one, ratio: `${Math.round((one.rps / spread.rps) * 100)}% of spread (target >= 80%)` });
      if (simulator)
        console.log(
          `VTU simulator process CPU per purchase (not in the service's column): spread ${spreadSim} ms, one provider ${oneSim} ms`,
        );

      // Requests cut off at the end of a run are still being served: let them finish before counting.
      await new Promise((r) => setTimeout(r, 3000));
      const statuses = await rows<{ status: string; n: number }>(
        database.db,
        sql`SELECT status, count(*)::int AS n FROM vtu_transactions GROUP BY status ORDER BY status`,
      );
      console.log(`vtu transactions by status: ${statuses.map((s) => `${s.status} ${s.n}`).join(', ')}`);
      const open = await rows<{ service: string; last_provider_status: string | null; n: number }>(
        database.db,
        sql`SELECT service, last_provider_status, count(*)::int AS n FROM vtu_transactions WHERE status = 'processing' GROUP BY 1, 2`,
      );
      if (open.length) console.log(`still processing (reconciliation is off in this run): ${JSON.stringify(open)}`);
      const doubles = await rows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM (SELECT request_id FROM sandbox_vtu_orders WHERE status = 'delivered' GROUP BY request_id HAVING count(*) > 1) d`,
      );
      console.log(`request ids delivered more than once: ${doubles[0].n}`);
      const report = await verifyLedger(database.db);
      vtuLedgerBreaches = report.breaches.length;
      console.log(`ledger: ${report.breaches.length ? `BREACHES ${JSON.stringify(report.breaches)}` : 'ok'}`);
      vtuPeakRssMb = svc.peakRssMb();
      console.log(`service peak RSS: ${vtuPeakRssMb} MB`);
      await database.close();
    } finally {
      await svc.stop();
    }
  } finally {
    await simulator?.stop();
    await db.drop();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  table(await buyAirtimeBench());
}
