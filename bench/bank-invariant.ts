import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, rows } from '../src/db/client.js';
import { verifyLedger } from '../src/ledger/verify.js';
import { setPinOver, signInOver, startServer } from './lib.js';

/**
 * Bank invariant under load: a bounded, self-stopping run of mixed money traffic over real loopback
 * HTTP against BANK_INVARIANT_INSTANCES server processes (default 2) sharing one fresh PostgreSQL database:
 * top-ups (intent, sandbox checkout, signed webhook, credit job), airtime purchases (some the provider fails and
 * refunds), transfers between users and wallet debits, for BANK_INVARIANT_SECONDS (default 60) with
 * BANK_INVARIANT_WORKERS concurrent loops (default 16) over BANK_INVARIANT_USERS users (default 40), each user
 * starting at zero. After the load stops and every webhook, job and purchase has settled (bounded wait), it checks
 * to the kobo:
 *
 *   money in (settled top-ups) = money out (delivered purchases at retail + wallet debits) + all user balances
 *
 * from the domain tables against the ledger's materialised balances, plus `ledger:verify`. Purchases, transfers and
 * debits carry an Idempotency-Key and some are retried at once on the other instance and again later: every answer
 * under a key must be its first answer replayed or 409, and each key answered 200 must have moved money once. It prints the figures
 * and exits non-zero on any mismatch. `npm run bank:invariant`; test/multi/bank-invariant.test.ts runs a short one.
 */
export interface BankInvariantOptions {
  baseDatabaseUrl: string;
  redisUrl?: string;
  seconds: number;
  workers: number;
  users: number;
  instances: number;
  /** DATABASE_POOL_SIZE of each instance (the service's default, 20, when omitted). */
  poolSize?: number;
  log?: (line: string) => void;
}

export interface BankInvariantReport {
  ok: boolean;
  problems: string[];
  operations: Record<string, Record<string, number>>;
  figures: {
    moneyIn: bigint;
    purchasesDelivered: bigint;
    debits: bigint;
    userBalances: bigint;
    difference: bigint;
    ledgerTopups: bigint;
    processing: number;
    unprocessedEvents: number;
  };
  userFlowsByType: Record<string, string>;
}

const PIN = '1234';
const rand = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
/** MTN numbers the simulator delivers at once, and some ending 1111, which it fails (the purchase is refunded). */
const phone = () => `0803${String(rand(0, 999)).padStart(3, '0')}${Math.random() < 0.15 ? '1111' : String(rand(1200, 1289))}`;

async function freshDatabase(base: string) {
  const name = `bankinv_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

async function post(
  base: string,
  route: string,
  data: unknown,
  token?: string,
  idempotencyKey?: string,
): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(base + route, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify(data),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch (err) {
    return { status: 0, body: String(err) };
  }
}

export async function runBankInvariant(o: BankInvariantOptions): Promise<BankInvariantReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const db = await freshDatabase(o.baseDatabaseUrl);
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  const dataDir = path.join(os.tmpdir(), `bank-invariant-${randomUUID()}`);
  // Backstop: a caller that dies (a test timeout, Ctrl-C) leaves no server behind.
  const killServers = () => servers.forEach((s) => s.child.kill('SIGKILL'));
  process.once('exit', killServers);
  try {
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      SANDBOX: 'true',
      VTU_PROVIDER_TIMEOUT_MS: '5000',
      VTU_RECONCILE_EVERY_MS: '1000',
      ...(o.redisUrl ? { REDIS_URL: o.redisUrl } : {}),
      ...(o.poolSize ? { DATABASE_POOL_SIZE: String(o.poolSize) } : {}),
    };
    // The first instance applies the migrations and writes the shared signing key under DATA_DIR; then the rest.
    servers.push(await startServer('bench/vtu-server.ts', env));
    servers.push(...(await Promise.all(Array.from({ length: o.instances - 1 }, () => startServer('bench/vtu-server.ts', env)))));
    const bases = servers.map((s) => s.url);
    log(`instances: ${bases.join(', ')}`);

    const users: { token: string; userId: string; email: string; username: string }[] = [];
    for (let i = 0; i < o.users; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, o.users - i) }, async (_, j) => {
          const u = await signInOver(pick(bases), `bank${i + j}-${randomUUID().slice(0, 6)}@example.com`);
          await setPinOver(pick(bases), u, PIN);
          return { ...u, username: `bank${i + j}${randomUUID().slice(0, 6)}` };
        }),
      );
      users.push(...batch);
    }
    const database = await openDatabase({ url: db.url, dataDir });
    try {
      // Tier 3 with an approved Tier 2 record (transfers need it); every wallet starts at zero: all money enters by top-up.
      for (const u of users) {
        await database.db.execute(
          sql`UPDATE users SET kyc_tier = 3, username = ${u.username}, full_name = 'Load Tester' WHERE id = ${u.userId}`,
        );
        await database.db.execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, verified_name, created_at, updated_at)
            VALUES (gen_random_uuid(), ${u.userId}, 2, 'approved', 'Load Tester', now(), now())`);
      }

      const ops: Record<string, Record<string, number>> = {};
      const count = (op: string, status: number, code?: string) => {
        const key = status === 200 ? '200' : `${status}${code ? ` ${code}` : ''}`;
        ops[op] ??= {};
        ops[op][key] = (ops[op][key] ?? 0) + 1;
      };
      // Every money request carries an Idempotency-Key. A quarter are also sent again at once to the other instance
      // (a client retry racing the original) and a tenth once more after both answered: each key must move money at
      // most once, and every answer under a key is the first answer replayed or 409 (still in flight).
      const retries = { raced: 0, late: 0, replayed: 0, inFlight: 0 };
      const executedKeys: Record<string, number> = {};
      const keyProblems: string[] = [];
      const keyed = async (op: string, base: string, route: string, data: unknown, token: string) => {
        const key = randomUUID();
        const other = bases.find((b) => b !== base) ?? base;
        const race = Math.random() < 0.25;
        const answers = await Promise.all([post(base, route, data, token, key), ...(race ? [post(other, route, data, token, key)] : [])]);
        if (race) retries.raced++;
        if (Math.random() < 0.1) {
          retries.late++;
          answers.push(await post(pick(bases), route, data, token, key));
        }
        const first = answers.find((a) => a.status !== 409) ?? answers[0];
        for (const a of answers) {
          if (a === first) continue;
          if (a.status === 409) retries.inFlight++;
          else if (a.status === first.status && JSON.stringify(a.body) === JSON.stringify(first.body)) retries.replayed++;
          else
            keyProblems.push(
              `${op}: one Idempotency-Key answered ${first.status} ${JSON.stringify(first.body).slice(0, 120)} and ${a.status} ${JSON.stringify(a.body).slice(0, 120)}`,
            );
        }
        if (first.status === 200) executedKeys[op] = (executedKeys[op] ?? 0) + 1;
        return first;
      };
      const deadline = Date.now() + o.seconds * 1000;
      const worker = async () => {
        while (Date.now() < deadline) {
          const u = pick(users);
          const base = pick(bases);
          const roll = Math.random();
          if (roll < 0.3) {
            const intent = await post(base, '/_serverFn/createTopupIntentBearerWallet', { data: { amount: rand(500, 5000) } }, u.token);
            count('topup intent', intent.status, intent.body?.error?.code);
            if (intent.status !== 200) continue;
            // The customer pays on the checkout of any instance; the simulator posts charge.success to that instance.
            const paid = await post(pick(bases), '/sandbox/processor/pay', { reference: intent.body.reference, outcome: 'success' });
            count('topup pay', paid.status, paid.body?.webhook?.delivered === false ? 'webhook not delivered' : undefined);
          } else if (roll < 0.65) {
            const r = await keyed(
              'buyAirtime',
              base,
              '/api/v1/buyAirtime',
              { data: { network: 'mtn', phone: phone(), amount: rand(50, 800), pin: PIN } },
              u.token,
            );
            count('buyAirtime', r.status, r.body?.error?.code ?? (r.status === 200 ? undefined : String(r.body).slice(0, 60)));
          } else if (roll < 0.9) {
            const to = pick(users.filter((x) => x !== u));
            const r = await keyed(
              'transferWalletFn',
              base,
              '/_serverFn/transferWalletFnBearerWallet',
              { data: { username: to.username, amount: rand(50, 1500), pin: PIN } },
              u.token,
            );
            count('transferWalletFn', r.status, r.body?.error?.code);
          } else {
            const r = await keyed(
              'debitWalletFn',
              base,
              '/_serverFn/debitWalletFnBearerWallet',
              { data: { amount: rand(50, 500), note: 'load test debit', pin: PIN } },
              u.token,
            );
            count('debitWalletFn', r.status, r.body?.error?.code);
          }
        }
      };
      log(`load: ${o.workers} workers, ${o.users} users, ${o.seconds} s`);
      await Promise.all(Array.from({ length: o.workers }, worker));

      // Let webhooks, credit jobs and reconciliation finish (bounded): nothing may stay in flight.
      const settleUntil = Date.now() + 60_000;
      let processing = 0;
      let unprocessedEvents = 0;
      for (;;) {
        processing = (
          await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM vtu_transactions WHERE status = 'processing'`)
        )[0].n;
        unprocessedEvents = (
          await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM processor_events WHERE status = 'received'`)
        )[0].n;
        if ((processing === 0 && unprocessedEvents === 0) || Date.now() > settleUntil) break;
        await new Promise((r) => setTimeout(r, 250));
      }

      const one = async (q: ReturnType<typeof sql>) => BigInt((await rows<{ s: string }>(database.db, q))[0].s);
      const moneyIn = await one(sql`SELECT COALESCE(SUM(amount), 0)::text AS s FROM payment_settlements`);
      const purchasesDelivered = await one(sql`SELECT COALESCE(SUM(amount), 0)::text AS s FROM vtu_transactions WHERE status = 'success'`);
      const debits = await one(
        sql`SELECT COALESCE(SUM(-e.amount), 0)::text AS s FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
            JOIN accounts a ON a.id = e.account_id WHERE t.type = 'wallet_debit' AND a.code LIKE 'user:%'`,
      );
      const userBalances = await one(sql`SELECT COALESCE(SUM(balance), 0)::text AS s FROM accounts WHERE code LIKE 'user:%'`);
      const ledgerTopups = await one(
        sql`SELECT COALESCE(SUM(e.amount), 0)::text AS s FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
            JOIN accounts a ON a.id = e.account_id WHERE t.type IN ('topup', 'dva_credit') AND a.code LIKE 'user:%'`,
      );
      const flows = await rows<{ type: string; s: string }>(
        database.db,
        sql`SELECT t.type, SUM(e.amount)::text AS s FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
            JOIN accounts a ON a.id = e.account_id WHERE a.code LIKE 'user:%' GROUP BY t.type ORDER BY t.type`,
      );
      const difference = moneyIn - purchasesDelivered - debits - userBalances;
      const verify = await verifyLedger(database.db);
      const doubles = (
        await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM (SELECT request_id FROM sandbox_vtu_orders WHERE status = 'delivered' GROUP BY request_id HAVING count(*) > 1) d`,
        )
      )[0].n;
      const doubleCredits = (
        await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM (SELECT processor_reference FROM payment_settlements GROUP BY 1 HAVING count(*) > 1) d`,
        )
      )[0].n;
      // Once per key: as many postings (and purchases) as keys that were answered 200.
      const postings = await rows<{ type: string; n: number }>(
        database.db,
        sql`SELECT type, count(*)::int AS n FROM ledger_transactions WHERE type IN ('wallet_debit', 'transfer_out') GROUP BY type`,
      );
      const postingsOf = (type: string) => postings.find((p) => p.type === type)?.n ?? 0;
      const purchaseRows = (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM vtu_transactions`))[0].n;
      const problems: string[] = [...keyProblems.slice(0, 20)];
      if (keyProblems.length > 20) problems.push(`... and ${keyProblems.length - 20} more answers that differ under one key`);
      if (postingsOf('wallet_debit') !== (executedKeys.debitWalletFn ?? 0)) {
        problems.push(`${postingsOf('wallet_debit')} wallet debits posted for ${executedKeys.debitWalletFn ?? 0} keys answered 200`);
      }
      if (postingsOf('transfer_out') !== (executedKeys.transferWalletFn ?? 0)) {
        problems.push(`${postingsOf('transfer_out')} transfers posted for ${executedKeys.transferWalletFn ?? 0} keys answered 200`);
      }
      if (purchaseRows !== (executedKeys.buyAirtime ?? 0))
        problems.push(`${purchaseRows} purchases recorded for ${executedKeys.buyAirtime ?? 0} keys answered 200`);
      if (!retries.replayed) problems.push('no retry under an Idempotency-Key was replayed: the run did not test them');
      if (difference !== 0n) problems.push(`money in - (out + balances) = ${difference} kobo, not 0`);
      if (ledgerTopups !== moneyIn) problems.push(`ledger top-up credits ${ledgerTopups} kobo differ from settlements ${moneyIn} kobo`);
      if (processing) problems.push(`${processing} purchases still processing after the settle wait`);
      if (unprocessedEvents) problems.push(`${unprocessedEvents} webhook events still unprocessed after the settle wait`);
      if (doubles) problems.push(`${doubles} provider request ids delivered more than once`);
      if (doubleCredits) problems.push(`${doubleCredits} processor references credited more than once`);
      for (const b of verify.breaches) problems.push(`ledger:verify ${b.invariant}: ${b.detail}`);
      if (!ops.buyAirtime?.['200'] || !ops.transferWalletFn?.['200'] || !ops['topup pay']?.['200'])
        problems.push('the run did not complete at least one top-up, purchase and transfer');

      const report: BankInvariantReport = {
        ok: problems.length === 0,
        problems,
        operations: ops,
        figures: { moneyIn, purchasesDelivered, debits, userBalances, difference, ledgerTopups, processing, unprocessedEvents },
        userFlowsByType: Object.fromEntries(flows.map((f) => [f.type, f.s])),
      };
      const naira = (k: bigint) => `${k < 0n ? '-' : ''}₦${(k < 0n ? -k : k) / 100n}.${String((k < 0n ? -k : k) % 100n).padStart(2, '0')}`;
      log(`operations: ${JSON.stringify(ops)}`);
      log(
        `Idempotency-Key retries: ${retries.raced} raced on the other instance, ${retries.late} late; ${retries.replayed} replayed, ${retries.inFlight} answered 409`,
      );
      log(`money in (settled top-ups):        ${naira(moneyIn)}`);
      log(`money out: delivered purchases:    ${naira(purchasesDelivered)}`);
      log(`money out: wallet debits:          ${naira(debits)}`);
      log(`user balances (all user accounts): ${naira(userBalances)}`);
      log(`in - (out + balances):             ${difference} kobo`);
      log(`user-account flows by ledger type (kobo): ${JSON.stringify(report.userFlowsByType)}`);
      log(
        problems.length ? `BANK INVARIANT FAILED:\n  - ${problems.join('\n  - ')}` : 'bank invariant holds to the kobo; ledger:verify ok',
      );
      return report;
    } finally {
      await database.close();
    }
  } finally {
    await Promise.all(servers.map((s) => (s.child.exitCode === null && s.child.signalCode === null ? s.stop() : undefined)));
    process.removeListener('exit', killServers);
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const report = await runBankInvariant({
    baseDatabaseUrl: env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.BENCH_REDIS_URL ?? env.TEST_REDIS_URL,
    seconds: Number(env.BANK_INVARIANT_SECONDS ?? 60),
    workers: Number(env.BANK_INVARIANT_WORKERS ?? 16),
    users: Number(env.BANK_INVARIANT_USERS ?? 40),
    instances: Number(env.BANK_INVARIANT_INSTANCES ?? 2),
  });
  process.exit(report.ok ? 0 : 1);
}
