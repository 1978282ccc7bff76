import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { percent } from './goals.js';
import { prepareBuyers } from './buy-airtime.js';
import { freshDatabase, json, measured, startServer, table, type Result, type Server } from './lib.js';

/**
 * Issue 45: a purchase by API key costs no more than by session. The same purchase, buyAirtime of NGN 100 of MTN
 * airtime (provider C) on the versioned path with an Idempotency-Key, made by each user's live API key (no PIN: the
 * key's scopes stand in for it) and by the same users' sessions (the transaction PIN), on one service with the
 * simulators in their own process. KEY_ROUNDS rounds (3) of one BENCH_SECONDS window each way, the order swapped every
 * round, so a machine whose speed drifts drifts for both alike; the figure is the ratio of the totals.
 * Run alone: `npx tsx bench/buy-by-key.ts`; exported for bench/run.ts (BENCH_ONLY=key).
 */
const USERS = Number(process.env.BENCH_KEY_USERS ?? 100);
const ROUNDS = Number(process.env.KEY_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_VTU_CONNECTIONS ?? 32);

const safePhone = () =>
  `0803${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}12${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;

type Way = 'session' | 'key';

/** A buyAirtime request by session (with the PIN) or by key (without), each with a fresh Idempotency-Key. */
function purchaseBy(way: Way, bearer: string) {
  const pin = way === 'session' ? { pin: '1234' } : {};
  return {
    method: 'POST' as const,
    path: '/api/v1/buyAirtime',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ data: { network: 'mtn', phone: safePhone(), amount: 100, ...pin } }),
  };
}

/** A live key with the purchase scope for each user, made over the API as the developer page makes it. */
async function liveKeys(svc: Server, users: { token: string }[]) {
  const keys: string[] = [];
  for (const u of users) {
    const made = await json(
      `${svc.url}/_serverFn/createApiKeyBearerDevelopers`,
      { data: { name: 'bench', mode: 'live', scopes: ['purchase'] } },
      { authorization: `Bearer ${u.token}`, 'idempotency-key': randomUUID() },
    );
    if (!made.ok) throw new Error(`createApiKey: ${JSON.stringify(made)}`);
    keys.push(made.secret as string);
  }
  return keys;
}

const sum = (rs: Result[], f: (r: Result) => number) => rs.reduce((t, r) => t + f(r), 0);
/** Server + PostgreSQL CPU ms per purchase over every window of one way. */
const cpuPer = (rs: Result[]) =>
  sum(rs, (r) => ((r.cpu?.server ?? 0) + (r.cpu?.postgres ?? 0)) * (r.total ?? 0)) /
  Math.max(
    1,
    sum(rs, (r) => r.total ?? 0),
  );

/** Both ways' totals as table rows (the key's with its ratio to the session's) and whether the key is within 10 %. */
export async function buyByKeyBench(): Promise<{ rows: Result[]; met: boolean; summary: string }> {
  const db = await freshDatabase('benchkey');
  const env = { DATABASE_URL: db.url, SANDBOX: 'true', JOBS_ENABLED: 'false', NODE_ENV: 'development', VTU_PROVIDER_TIMEOUT_MS: '10000' };
  let simulator: Server | null = null;
  let svc: Server | null = null;
  try {
    simulator = await startServer('bench/vtu-server.ts', env);
    const providers = Object.fromEntries(
      ['A', 'B', 'C', 'D'].map((p) => [`VTU_PROVIDER_${p}_URL`, `${simulator!.url}/sandbox/providers/${p.toLowerCase()}`]),
    );
    svc = await startServer('bench/vtu-server.ts', { ...env, ...providers });
    const { users, database } = await prepareBuyers(svc, db.url, USERS, 'key');
    // Live keys need a price level that allows them (issue 45): the bench's buyers are API partners, as an operator grants.
    await database.db.execute(sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at)
                                  SELECT id, 'api_partner', 'grant', now() FROM users ON CONFLICT (user_id) DO NOTHING`);
    await database.close();
    const bearers: Record<Way, string[]> = { session: users.map((u) => u.token), key: await liveKeys(svc, users) };
    let n = 0;
    const run = (way: Way, name: string, amount?: number) =>
      measured(svc!, name, {
        url: svc!.url,
        connections: CONNECTIONS,
        ...(amount ? { amount } : {}),
        requests: [{ setupRequest: (req: any) => ({ ...req, ...purchaseBy(way, bearers[way][n++ % USERS]) }) }],
      } as any);
    // Warm-up both ways: the provider float funded just in time, each PIN checked once (then the verified-PIN memo),
    // each key's row and the statements prepared.
    for (const way of ['session', 'key'] as const) await run(way, 'warm-up', USERS * 3);
    const windows: Record<Way, Result[]> = { session: [], key: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const way of round % 2 ? (['key', 'session'] as const) : (['session', 'key'] as const)) {
        const r = await run(way, way);
        if (r.errors) throw new Error(`${way}: ${r.errors} failed purchases in round ${round + 1}`);
        windows[way].push(r);
        console.log(
          `round ${round + 1} by ${way}: ${r.rps}/s p99 ${r.p99} ms, ${((r.cpu?.server ?? 0) + (r.cpu?.postgres ?? 0)).toFixed(2)} CPU ms`,
        );
      }
    }
    const total = (way: Way, name: string): Result => {
      const rs = windows[way];
      const last = rs.at(-1)!;
      return {
        ...last,
        name,
        rps: Math.round(sum(rs, (r) => r.rps) / rs.length),
        p50: Math.max(...rs.map((r) => r.p50)),
        p99: Math.max(...rs.map((r) => r.p99)),
        errors: sum(rs, (r) => r.errors),
        total: sum(rs, (r) => r.total ?? 0),
      };
    };
    const bySession = total('session', `buyAirtime by session, PIN + Idempotency-Key (${USERS} users, ${ROUNDS} windows)`);
    const byKey = total('key', `buyAirtime by live API key, Idempotency-Key (${USERS} keys, ${ROUNDS} windows alternated)`);
    const [sessionCpu, keyCpu] = [cpuPer(windows.session), cpuPer(windows.key)];
    const met = byKey.rps >= 0.9 * bySession.rps && keyCpu <= 1.1 * sessionCpu;
    const summary = `by key ${byKey.rps}/s and ${keyCpu.toFixed(2)} CPU ms, by session ${bySession.rps}/s and ${sessionCpu.toFixed(2)} CPU ms (server + PostgreSQL per purchase)`;
    return {
      rows: [
        bySession,
        {
          ...byKey,
          ratio: `${percent(byKey.rps, bySession.rps)} of by session, CPU ${percent(keyCpu, sessionCpu)} (>= 90%, <= 110%)`,
          met,
        },
      ],
      met,
      summary,
    };
  } finally {
    await svc?.stop();
    await simulator?.stop();
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await buyByKeyBench();
  table(r.rows);
  console.log(`\n${r.summary}: ${r.met ? 'within 10 %' : 'NOT within 10 %'}`);
}
