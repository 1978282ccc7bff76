import { cannon, freshDatabase, signInOver, startServer, table, json, type Result } from './lib.js';
import { rawSqlTransfers, serviceTransfers } from './ledger-transfers.js';

/**
 * `npm run bench`: bounded load runs on loopback against a real server on PostgreSQL (BENCH_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres; a fresh database per run). BENCH_SECONDS per run (5).
 */
const rows: (Result & { ratio?: string })[] = [];
const pct = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;

const hello = await startServer('bench/hello-server.ts', {});
const bare = await cannon('bare Fastify hello-world', { url: `${hello.url}/` });
await hello.stop();
rows.push(bare);

const db = await freshDatabase();
try {
  const svc = await startServer('bench/service-server.ts', { DATABASE_URL: db.url, SANDBOX: 'true', JOBS_ENABLED: 'false', NODE_ENV: 'development' });
  const users = await Promise.all(Array.from({ length: 32 }, (_, i) => signInOver(svc.url, `bench${i}@example.com`)));
  let i = 0;
  const wallet = await cannon('getWalletState (full API, 32 users)', {
    url: `${svc.url}/_serverFn/getWalletStateBearerWallet`,
    setupClient: (client) => {
      client.setHeaders({ authorization: `Bearer ${users[i++ % users.length].token}` });
    },
  });
  rows.push({ ...wallet, ratio: `${pct(wallet.rps, bare.rps)} of bare (target >= 20%)` });
  const ready = await json(`${svc.url}/readyz`);
  if (!ready.ok) throw new Error('service not ready');
  console.log(`service peak RSS: ${svc.peakRssMb()} MB`);
  await svc.stop();

  const raw = await rawSqlTransfers(db.url);
  rows.push(raw);
  const service = await serviceTransfers(db.url);
  rows.push({ ...service, ratio: `${pct(service.rps, raw.rps)} of raw SQL (target >= 50%)` });
} finally {
  await db.drop();
}
table(rows);
