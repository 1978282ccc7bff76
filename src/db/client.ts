import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<any, Schema>;
export type Tx = PgTransaction<any, Schema, any>;
/** Either the database or an open transaction: repository functions take this as their first argument. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pg' | 'pglite';
  db: Db;
  /** Runs a multi-statement script (migrations). */
  execScript(text: string): Promise<void>;
  /** Runs fn on one dedicated connection holding a PostgreSQL advisory lock (start-up work across instances). */
  withLock<T>(key: number, fn: (exec: (text: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// node-postgres: bigint (int8) and numeric come back as strings; we parse int8 to bigint in repositories.
pg.types.setTypeParser(20, (v) => v);

export async function openDatabase(opts: { url?: string; dataDir: string; poolSize?: number }): Promise<Database> {
  if (opts.url && !opts.url.startsWith('pglite:') && opts.url !== 'memory://') {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 20 });
    pool.on('error', () => {
      /* idle client errors are reported by the next query */
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      kind: 'pg',
      db,
      execScript: async (text) => {
        await pool.query(text);
      },
      withLock: async (key, fn) => {
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
      },
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  if (opts.url === 'memory://') dir = undefined;
  else if (opts.url?.startsWith('pglite:')) dir = opts.url.slice('pglite:'.length);
  else dir = path.join(opts.dataDir, 'pglite');
  if (dir) fs.mkdirSync(dir, { recursive: true });
  // PGlite is one connection: it queues every query behind an open transaction, so transactions are serialised.
  const client = new PGlite(dir);
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
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
    close: () => client.close(),
  };
}

/** Rows of a raw query, the same on node-postgres and PGlite. */
export async function rows<T = Record<string, unknown>>(exec: Executor, query: SQL): Promise<T[]> {
  const r = (await exec.execute(query)) as unknown as { rows: T[] };
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
