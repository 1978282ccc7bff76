import fs from 'node:fs';
import path from 'node:path';
import type { PGlite as PGliteClient } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { SQL, StringChunk, entityKind, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PgDatabase, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { CHANNEL_NAME, pgSubscription, type Subscription } from './listen.js';
import { PreparingClient } from './prepared.js';

export { plannedPerCall } from './prepared.js';

export type { Subscription } from './listen.js';
import { ambientDatabase, ambientStatement, inAmbientTransaction } from './ambient.js';

// No schema is handed to Drizzle: queries name their tables (or are raw SQL), and the relational query API
// (`db.query.<table>`), the one use of a schema, is not used; the database layer names no module's tables.
export type Db = PgDatabase<any>;
export type Tx = PgTransaction<any, Record<string, never>, any>;
/** Either the database or an open transaction: repository functions take this as their first argument. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pg' | 'pglite';
  db: Db;
  /** Runs a multi-statement script (migrations). */
  execScript(text: string): Promise<void>;
  /** Runs fn on one dedicated connection holding a PostgreSQL advisory lock (start-up work across instances). */
  withLock<T>(key: number, fn: (exec: LockedExec) => Promise<T>): Promise<T>;
  /**
   * LISTEN on a channel. `message` gets each payload; `reset` runs whenever payloads may have been missed (before
   * the first LISTEN is in place, after a lost connection), so a cache built on these messages starts over.
   * `live()` is false while messages cannot arrive: nothing may be cached then.
   */
  subscribe(channel: string, handlers: { message(payload: string): void; reset(): void }): Promise<Subscription>;
  close(): Promise<void>;
}

// node-postgres: bigint (int8) and numeric come back as strings; we parse int8 to bigint in repositories.
pg.types.setTypeParser(20, (v) => v);

type OpenOptions = {
  url?: string;
  listenUrl?: string;
  dataDir: string;
  poolSize?: number;
  preparedStatements?: boolean;
  /**
   * For `memory://` only: a PGlite data directory image (`dumpDataDir`) to start from instead of an empty cluster.
   * The test harness passes one built and migrated once per run: PGlite's initdb costs ~2.5 s a database.
   */
  pgliteImage?: Blob;
};

/**
 * `listenUrl`: where LISTEN connections go when `url` is a transaction-mode pooler (which cannot hold a LISTEN):
 * PostgreSQL itself or a session-mode pool (DATABASE_LISTEN_URL; docs/scaling.md).
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url && !opts.url.startsWith('pglite:') && opts.url !== 'memory://') return openPostgres({ ...opts, url: opts.url });
  return openPglite(opts);
}

function openPostgres(opts: OpenOptions & { url: string }): Database {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize ?? 20,
    // node-postgres's pipeline mode: a connection writes a statement without waiting for the one before it to be
    // answered, so `pipelined` sends a whole change (BEGIN, its statements, COMMIT) in one round trip.
    pipeline: true,
    ...(opts.preparedStatements === false ? {} : { Client: PreparingClient }),
  });
  pool.on('error', () => {
    /* idle client errors are reported by the next query */
  });
  const db = ambientDatabase(drizzlePg(pool) as unknown as Db);
  return {
    kind: 'pg',
    db,
    execScript: async (text) => {
      await pool.query(text);
    },
    withLock: (key, fn) => withAdvisoryLock(pool, key, fn),
    subscribe: async (channel, handlers) => {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`bad channel name ${channel}`);
      return pgSubscription(opts.listenUrl ?? opts.url, channel, handlers);
    },
    close: () => pool.end(),
  };
}

type LockedExec = (text: string) => Promise<Record<string, unknown>[]>;

/** fn on one connection of the pool, holding the advisory lock `key` until it returns. */
async function withAdvisoryLock<T>(pool: pg.Pool, key: number, fn: (exec: LockedExec) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('SELECT pg_advisory_lock($1)', [key]);
    try {
      return await fn(async (text) => {
        const r = (await c.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(r) ? (r[r.length - 1]?.rows ?? []) : r.rows;
      });
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    c.release();
  }
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  let dir: string | undefined;
  if (opts.url === 'memory://') dir = undefined;
  else if (opts.url?.startsWith('pglite:')) dir = opts.url.slice('pglite:'.length);
  else dir = path.join(opts.dataDir, 'pglite');
  if (dir) fs.mkdirSync(dir, { recursive: true });
  // Loaded only here: against PostgreSQL the embedded database's modules are never imported (docs/scaling.md, "Memory").
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  // PGlite is one connection: it queues every query behind an open transaction, so transactions are serialised.
  const client: PGliteClient = opts.pgliteImage && !dir ? new PGlite({ loadDataDir: opts.pgliteImage }) : new PGlite(dir);
  await client.waitReady;
  const db = ambientDatabase(drizzlePglite(client) as unknown as Db);
  return {
    kind: 'pglite',
    db,
    execScript: async (text) => {
      await client.exec(text);
    },
    withLock: (_key, fn) =>
      fn(async (text) => {
        const r = await client.exec(text);
        return (r[r.length - 1]?.rows ?? []) as Record<string, unknown>[];
      }),
    // PGlite is in this process: a NOTIFY reaches the listener before the committing query returns.
    subscribe: async (channel, handlers) => {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`bad channel name ${channel}`);
      const unlisten = await client.listen(channel, (payload) => handlers.message(payload));
      handlers.reset();
      let live = true;
      return {
        live: () => live,
        close: async () => {
          live = false;
          if (!client.closed) await unlisten();
        },
      };
    },
    close: () => client.close(),
  };
}

/**
 * The text and parameters of a drizzle `sql` statement, built in one pass (drizzle's builder allocated a
 * result object per chunk and was about a tenth of a transfer's CPU in the service). It takes what our raw
 * statements are made of: template text, nested `sql` (joins, raw), lists and plain values, each value one `$n`
 * parameter exactly as drizzle numbers it; anything else (columns, tables, named or inlined parameters,
 * placeholders) gives null and drizzle builds the statement. Tests check every statement against drizzle's own
 * build (checkCompiledSql).
 */
export function compileSql(query: SQL): { text: string; params: unknown[] } | null {
  let text = '';
  const params: unknown[] = [];
  const walk = (chunks: readonly unknown[]): boolean => {
    for (const chunk of chunks) {
      if (chunk instanceof StringChunk) {
        const v = chunk.value;
        text += v.length === 1 ? v[0] : v.join('');
      } else if (chunk instanceof SQL) {
        if (inlined(chunk) || !walk(chunk.queryChunks)) return false;
      } else if (chunk === undefined) {
        continue;
      } else if (Array.isArray(chunk)) {
        text += '(';
        for (let i = 0; i < chunk.length; i++) {
          if (i) text += ', ';
          if (!walk([chunk[i]])) return false;
        }
        text += ')';
      } else if (
        chunk !== null &&
        typeof chunk === 'object' &&
        (entityKind in (chunk.constructor ?? {}) || typeof (chunk as { getSQL?: unknown }).getSQL === 'function')
      ) {
        return false;
      } else {
        params.push(chunk);
        text += `$${params.length}`;
      }
    }
    return true;
  };
  return !inlined(query) && walk(query.queryChunks) ? { text, params } : null;
}

const inlined = (q: SQL) => (q as unknown as { shouldInlineParams: boolean }).shouldInlineParams;

let checkCompiled = false;
const dialect = new PgDialect();
/** Tests: every statement compileSql builds is compared with drizzle's build of it, and a difference throws. */
export function checkCompiledSql(on: boolean) {
  checkCompiled = on;
}

/** Timestamps, dates and intervals stay text, as drizzle's node-postgres session reads them. */
const textTypes = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const asText = (v: string) => v;
const drizzleTypes = {
  getTypeParser: (oid: number, format?: string) => (textTypes.has(oid) ? asText : pg.types.getTypeParser(oid, format as 'text')),
};

/** The node-postgres pool (outside a transaction) or client (inside one) behind a drizzle executor; null on PGlite. */
function pgClientOf(exec: Executor): pg.Pool | pg.Client | null {
  const client = (exec as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Pool || client instanceof pg.Client ? client : null;
}

/** Rows of a raw query, the same on node-postgres and PGlite. */
export async function rows<T = Record<string, unknown>>(exec: Executor, query: SQL): Promise<T[]> {
  // Inside a request's ambient transaction (db/ambient.ts) the database object's statements join it.
  const joined = ambientStatement(exec, (tx) => rows<T>(tx as Executor, query));
  if (joined) return joined;
  const client = pgClientOf(exec);
  if (client) return queryOn<T>(client, query);
  const r = (await exec.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

/**
 * Several statements in ONE round trip (node-postgres's pipeline mode writes each without waiting for the answer to
 * the one before), answering each statement's rows in order. `transaction`: inside one transaction of their own
 * (BEGIN and COMMIT written with them; a failing statement aborts the rest and the COMMIT rolls back) when `exec`
 * is the database; inside `exec`'s when it is one (a failure then aborts that transaction, as any failed statement
 * does). Without it each statement commits on its own (reads). The first failure is thrown. On PGlite, or inside a
 * request's ambient transaction (db/ambient.ts), the statements run one after another with the same outcome.
 */
export async function pipelined(exec: Executor, statements: readonly SQL[], opts: { transaction: boolean }): Promise<unknown[][]> {
  const client = inAmbientTransaction(exec) ? null : pgClientOf(exec);
  if (!client || !isPipelined(client)) {
    const run = async (e: Executor) => {
      const out: unknown[][] = [];
      for (const s of statements) out.push(await rows(e, s));
      return out;
    };
    return opts.transaction && !('rollback' in exec) && !inAmbientTransaction(exec) ? exec.transaction(run) : run(exec);
  }
  const all = async (sent: Promise<unknown>[]) => {
    const settled = await Promise.allSettled(sent);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  };
  if (client instanceof pg.Pool) {
    // One connection for all of them: written back to back, answered in one round trip.
    const c = await client.connect();
    let sound = true;
    try {
      if (!opts.transaction) return (await all(statements.map((s) => queryOn(c, s)))) as unknown[][];
      const answers = await all([c.query('BEGIN'), ...statements.map((s) => queryOn(c, s)), c.query('COMMIT')]);
      // A statement that failed is reported above; this would be a COMMIT that rolled back all the same.
      if ((answers[answers.length - 1] as pg.QueryResult).command !== 'COMMIT') throw new Error('pipelined: the transaction rolled back');
      return answers.slice(1, -1) as unknown[][];
    } catch (err) {
      sound = isSqlError(err);
      throw err;
    } finally {
      c.release(!sound);
    }
  }
  return (await all(statements.map((s) => queryOn(client, s)))) as unknown[][];
}

/**
 * Statements in ONE round trip on a pipelining pool (pipelinesAlone), each committing, answered or failed on its own
 * (the pipeline syncs after each): for batches of independent requests' statements (src/http/idempotency-batch.ts).
 */
export async function pipelinedEach(db: Db, statements: readonly SQL[]): Promise<PromiseSettledResult<unknown[]>[]> {
  const client = inAmbientTransaction(db) ? null : pgClientOf(db);
  if (!(client instanceof pg.Pool) || !isPipelined(client)) throw new Error('pipelinedEach: a pipelining pool only');
  const c = await client.connect();
  const settled = await Promise.allSettled(statements.map((s) => queryOn<unknown>(c, s)));
  c.release(!settled.every((r) => r.status === 'fulfilled' || isSqlError(r.reason)));
  return settled;
}

/**
 * True when `exec` is a pipelining pool used outside any ambient transaction: `pipelined` sends a transaction of
 * statements on a connection of its own in one round trip (false on PGlite and inside transactions).
 */
export function pipelinesAlone(exec: Executor): boolean {
  if (inAmbientTransaction(exec)) return false;
  const client = pgClientOf(exec);
  return client instanceof pg.Pool && isPipelined(client);
}

/** True when the pool or client writes statements without waiting for answers (openDatabase's pools do). */
function isPipelined(client: pg.Pool | pg.Client): boolean {
  return client instanceof pg.Pool
    ? Boolean((client.options as { pipeline?: boolean }).pipeline)
    : Boolean((client as unknown as { pipeline?: boolean }).pipeline);
}

/** An error the server answered (it has an SQLSTATE): the connection is still sound. */
const isSqlError = (err: unknown) => /^[0-9A-Z]{5}$/.test(String((err as { code?: unknown } | null)?.code ?? ''));

/** A statement's rows on a node-postgres pool or client, typed as drizzle's session reads them. */
async function queryOn<T>(client: pg.Pool | pg.Client | pg.PoolClient, query: SQL): Promise<T[]> {
  const built = compileSql(query);
  if (built && checkCompiled) {
    const theirs = dialect.sqlToQuery(query);
    if (theirs.sql !== built.text || theirs.params.length !== built.params.length || theirs.params.some((p, i) => p !== built.params[i])) {
      throw new Error(`compileSql differs from drizzle:\n${built.text}\n${theirs.sql}`);
    }
  }
  const { text, params } = built ?? (({ sql: t, params: p }) => ({ text: t, params: p }))(dialect.sqlToQuery(query));
  const r = await client.query<T & pg.QueryResultRow>({ text, types: drizzleTypes } as pg.QueryConfig, params);
  return r.rows;
}

export async function one<T = Record<string, unknown>>(exec: Executor, query: SQL): Promise<T | undefined> {
  return (await rows<T>(exec, query))[0];
}

/** Builds a parameterised SQL object from `$1`-style text, for libraries that speak (text, values). */
export function rawWithParams(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) chunks.push(sql.raw(parts[i]));
    else chunks.push(sql`${values[Number(parts[i]) - 1]}`);
  }
  return sql.join(chunks, sql.raw(''));
}

/** True when err (or its cause, as drizzle wraps driver errors) is a unique violation, optionally of one constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: any = err; e; e = e.cause) {
    if (e.code === '23505' && (!constraint || e.constraint === constraint || String(e.message).includes(constraint))) return true;
  }
  return false;
}

/**
 * Errors that mean a connection was never established, so the failing statement never reached the server: too
 * many clients (53300), the server starting up (57P03), the connection refused or rejected (08001, 08004,
 * ECONNREFUSED), or no pooled connection free within the pool's wait. A connection lost midway (a reset, a
 * shutdown) is not one of them: a COMMIT may have landed, so that stays a 500 whose outcome the client must check.
 */
const NEVER_CONNECTED_CODES = new Set(['53300', '57P03', '08001', '08004', 'ECONNREFUSED']);

/** True when err (or its cause) says the database could not be reached at all right now (NEVER_CONNECTED_CODES). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: any = err, i = 0; e && i < 4; e = e.cause, i++) {
    if (NEVER_CONNECTED_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && e.message.includes('timeout exceeded when trying to connect')) return true;
  }
  return false;
}
