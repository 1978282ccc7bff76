import { aloneTransfers } from './ledger-transfers.js';
import { freshDatabase, table, type Result } from './lib.js';
import { WAL_HEADER, walLine, walWindow, type WalCost } from './wal.js';

/**
 * `npx tsx bench/ledger-batches.ts [rounds]`: the ledger's postAlone between 128 wallets, 64 loops over a pool of
 * 20, one posting per statement and commit against postings in batches (LEDGER_BATCH_MAX, default 32, one event-loop
 * turn), alternated `rounds` times (3) on fresh databases, so both see the same machine (docs/scaling.md "Postings
 * in batches"). BENCH_SECONDS per run.
 */
const rounds = Number(process.argv[2] ?? 3);
const max = Number(process.env.LEDGER_BATCH_MAX ?? 32);
const rows: Result[] = [];
const wal: string[] = [];
for (let i = 0; i < rounds; i++) {
  for (const batch of [
    { max: 1, waitMs: 0 },
    { max, waitMs: 0 },
  ]) {
    const db = await freshDatabase('benchbatch');
    try {
      const r = await aloneTransfers(db.url, { workers: 64, accounts: 128, poolSize: 20, batch }, walWindow);
      rows.push(r.result);
      wal.push(walLine(`${r.result.name}, round ${i + 1}`, r.wal as WalCost, r.result.total ?? 0));
    } finally {
      await db.drop();
    }
  }
}
table(rows);
console.log(`\n${WAL_HEADER}\n${wal.join('\n')}`);
