import pg from 'pg';
import { PGlite, type Transaction } from '@electric-sql/pglite';

/**
 * The text of every statement `fn` sends over PostgreSQL connections (pg Client.query, BEGIN and SAVEPOINT
 * included), in order: for tests that pin how many round trips a path takes. PostgreSQL runs only;
 * PGlite has no pg client (statementsOfEither covers both).
 */
export async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    texts.push(String(typeof q === 'string' ? q : q?.text));
    return (original as (...x: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return texts;
}

/**
 * The statements `fn` sends over PostgreSQL connections, grouped by round trip: a statement written on a connection
 * while an earlier one on it is still unanswered (node-postgres's pipeline mode, db/client.ts `pipelined`) travels in
 * that round trip. PostgreSQL runs only.
 */
export async function roundTripsOf(fn: () => Promise<unknown>): Promise<string[][]> {
  const trips: string[][] = [];
  const open = new Map<pg.Client, { pending: number; trip: string[] }>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    let state = open.get(this);
    if (!state || state.pending === 0) {
      state = { pending: 0, trip: [] };
      open.set(this, state);
      trips.push(state.trip);
    }
    state.trip.push(String(typeof q === 'string' ? q : q?.text));
    state.pending++;
    const s = state;
    const out = (original as (...x: unknown[]) => unknown).apply(this, args);
    if (out instanceof Promise) void out.finally(() => s.pending--).catch(() => undefined);
    else s.pending--;
    return out;
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return trips;
}

/**
 * statementsOf on either database: on PGlite the statements drizzle sends through PGlite's query (a transaction
 * as BEGIN, its statements, COMMIT). For tests that compare the work two paths do, not the exact round trips.
 */
export async function statementsOfEither(fn: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const proto = PGlite.prototype as unknown as {
    query: (...a: unknown[]) => Promise<unknown>;
    transaction: (cb: (tx: Transaction) => Promise<unknown>) => Promise<unknown>;
  };
  const query = proto.query;
  const transaction = proto.transaction;
  proto.query = function (this: PGlite, ...args: unknown[]) {
    texts.push(String(args[0]));
    return query.apply(this, args);
  };
  proto.transaction = function (this: PGlite, cb: (tx: Transaction) => Promise<unknown>) {
    texts.push('BEGIN');
    return transaction.call(this, (tx: Transaction) => {
      const inner = tx.query.bind(tx);
      tx.query = ((...a: Parameters<Transaction['query']>) => {
        texts.push(String(a[0]));
        return inner(...a);
      }) as Transaction['query'];
      return cb(tx).finally(() => texts.push('COMMIT'));
    });
  };
  try {
    const pgTexts = await statementsOf(fn);
    return [...texts, ...pgTexts];
  } finally {
    proto.query = query;
    proto.transaction = transaction;
  }
}
