import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { writeExport } from '../src/modules/console/exports.js';
import { lagosRange } from '../src/modules/console/range.js';
import { freshDatabase } from './lib.js';

/**
 * Issue 30: an export of 100,000 ledger entries (BENCH_EXPORT_ROWS) streamed with flat memory. Not a timed test: it
 * prints the process's RSS before, the peak during the export (sampled every 20 ms) and after, and the same while
 * the file is read back as a download would stream it. Run alone with `npx tsx bench/export-memory.ts`; `npm run
 * bench` runs it in its own process (BENCH_ONLY=export for this one alone).
 */
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const mb = (n: number) => Math.round(n / 1024 / 1024);

function sampler() {
  let peak = process.memoryUsage().rss;
  let heap = process.memoryUsage().heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const t = setInterval(sample, 20);
  return () => {
    clearInterval(t);
    sample();
    return { rss: peak, heap };
  };
}

export async function exportMemoryBench(): Promise<string[]> {
  const fresh = await freshDatabase('bench_export');
  const database = await openDatabase({ url: fresh.url, dataDir: os.tmpdir() });
  const file = path.join(os.tmpdir(), `bench-export-${process.pid}.csv`);
  try {
    await migrate(database);
    const { db } = database;
    // ROWS/2 balanced postings of two entries each, on one day (2026-03-10 Lagos), written by SQL in bulk: what is
    // measured is the export, not the ledger's posting path.
    const at = new Date('2026-03-10T08:00:00Z');
    await db.execute(sql`INSERT INTO accounts (code, kind, user_id, materialised, allow_negative, balance, created_at)
      VALUES ('system:adjustments', 'adjustments', NULL, false, true, 0, ${at}), ('system:revenue', 'revenue', NULL, false, true, 0, ${at})`);
    await db.execute(sql`INSERT INTO ledger_transactions (reference, type, description, created_at)
      SELECT 'bench_' || g, 'adjustment', 'benchmark posting ' || g || ', with a comma and "quotes"', ${at}::timestamptz + g * interval '100 ms'
      FROM generate_series(1, ${ROWS / 2}) g`);
    await db.execute(sql`INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at)
      SELECT t.id, a.id, CASE WHEN a.code = 'system:adjustments' THEN -150050 ELSE 150050 END, t.created_at
      FROM ledger_transactions t CROSS JOIN (SELECT id, code FROM accounts WHERE code IN ('system:adjustments', 'system:revenue')) a ORDER BY t.id, a.id`);
    await db.execute(sql`ANALYZE ledger_entries`);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    const stop = sampler();
    const started = Date.now();
    const range = lagosRange({ from: '2026-03-10', to: '2026-03-10' }, at, 366);
    const out = await writeExport(db, 'ledger', range, file, async () => undefined);
    const during = stop();
    const seconds = (Date.now() - started) / 1000;
    const after = process.memoryUsage().rss;
    // Read back as the download route streams it.
    const stopRead = sampler();
    let bytes = 0;
    for await (const chunk of createReadStream(file)) bytes += (chunk as Buffer).length;
    const reading = stopRead().rss;
    const size = (await stat(file)).size;
    return [
      `export of ${out.rows.toLocaleString('en')} ledger entries (${mb(size)} MB of CSV) in ${seconds.toFixed(1)} s`,
      `  RSS before ${mb(before)} MB, peak during ${mb(during.rss)} MB (+${mb(during.rss - before)} MB), after ${mb(after)} MB; JS heap ${mb(heapBefore)} -> peak ${mb(during.heap)} MB`,
      `  reading the file back as a download streams it (${mb(bytes)} MB): peak RSS ${mb(reading)} MB`,
      `  flat memory: ${during.rss - before < 64 * 1024 * 1024 ? 'met' : 'NOT met'} (peak RSS within 64 MB of the start; the rows alone, held as objects, would be several times the ${mb(size)} MB file)`,
    ];
  } finally {
    await rm(file, { force: true });
    await database.close();
    await fresh.drop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const line of await exportMemoryBench()) console.log(line);
}
