import pg from 'pg';

/**
 * Bench servers only: counts database round trips (every pg Client.query, including BEGIN/COMMIT) so the
 * runner can print round trips per request. Printed with the RSS line; the runner takes deltas.
 */
let queries = 0;
// BENCH_TRACE_QUERIES=1 prints every statement to stderr (for counting what one request does).
const trace = process.env.BENCH_TRACE_QUERIES === '1';
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++;
  if (trace) {
    const q = args[0] as string | { text?: string };
    process.stderr.write(
      `SQL ${String(typeof q === 'string' ? q : q?.text)
        .replace(/\s+/g, ' ')
        .slice(0, 160)}\n`,
    );
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

export function reportStats() {
  console.log(`RSS ${Math.round(process.memoryUsage().rss / 1e6)} QUERIES ${queries}`);
}

/** Answers the runner's "STATS?" on stdin at once, so a delta is exact at the end of a run. */
export function startStats() {
  setInterval(reportStats, 500).unref();
  process.stdin.on('data', () => reportStats());
}
