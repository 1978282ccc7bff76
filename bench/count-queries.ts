import pg from 'pg';

/**
 * Bench servers only: counts database round trips so the runner can print round trips per request. A statement
 * (every pg Client.query, BEGIN and COMMIT included) starts a round trip unless it is written on a connection while an
 * earlier one there is still unanswered (pipeline mode: src/db/client.ts `pipelined`), which it travels with.
 * Printed with the RSS line; the runner takes deltas.
 */
let queries = 0;
let statements = 0;
const pending = new WeakMap<pg.Client, number>();
// BENCH_TRACE_QUERIES=1 prints every statement to stderr (for counting what one request does).
const trace = process.env.BENCH_TRACE_QUERIES === '1';
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  const open = pending.get(this) ?? 0;
  if (open === 0) queries++;
  pending.set(this, open + 1);
  if (trace) {
    const q = args[0] as string | { text?: string };
    process.stderr.write(
      `SQL ${String(typeof q === 'string' ? q : q?.text)
        .replace(/\s+/g, ' ')
        .slice(0, 160)}\n`,
    );
  }
  const out = (original as (...a: unknown[]) => unknown).apply(this, args);
  const done = () => pending.set(this, (pending.get(this) ?? 1) - 1);
  if (out instanceof Promise) void out.then(done, done);
  else done();
  return out;
} as typeof original;

export function reportStats() {
  console.log(`RSS ${Math.round(process.memoryUsage().rss / 1e6)} QUERIES ${queries} STATEMENTS ${statements}`);
}

/** Answers the runner's "STATS?" on stdin at once, so a delta is exact at the end of a run. */
export function startStats() {
  setInterval(reportStats, 500).unref();
  process.stdin.on('data', () => reportStats());
}
