import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The request's own transaction (issue 30: an admin call's effect and its audit row commit or roll back together).
 * Services hold the database object, not a transaction, so the registry cannot hand them one; instead the
 * database object they hold (openDatabase's, wrapped by `ambientDatabase`) routes every use made inside
 * `withAmbientTransaction` to that transaction:
 * - `db.transaction(fn)` becomes a savepoint of it (its own rollback still undoes only its own writes);
 * - a lone statement (`db.execute`, `rows(db, ...)`) runs under its own savepoint, so a failing statement a
 *   service catches (a unique violation, the ledger's retry signal) leaves the transaction usable, exactly as it
 *   left autocommit before;
 * - uses are taken one at a time (one connection: concurrent reads of a `Promise.all` queue instead of
 *   interleaving savepoints), and code inside a savepoint that uses the database object again joins that savepoint.
 * Once the transaction ends, work it started later (a timer, a promise left running) uses the database as usual.
 */
interface TxLike {
  execute(query: SQL): Promise<unknown>;
  transaction<T>(fn: (tx: any) => Promise<T>, config?: unknown): Promise<T>;
}

interface Ambient {
  root: object;
  tx: TxLike;
  state: { open: boolean };
  tail: Promise<unknown>;
}

const scope = new AsyncLocalStorage<Ambient>();

/** Runs `fn` after every earlier use of the ambient transaction `a` has finished. */
function serial<T>(a: Ambient, fn: () => Promise<T>): Promise<T> {
  const run = a.tail.then(fn, fn);
  a.tail = run.catch(() => undefined);
  return run;
}

/** A lone statement inside the ambient transaction, under its own savepoint (see above). */
export function ambientStatement<T>(exec: object, fn: (tx: TxLike) => Promise<T>): Promise<T> | null {
  const a = scope.getStore();
  if (!a || !a.state.open || a.root !== exec) return null;
  return serial(a, async () => {
    await a.tx.execute(sql`SAVEPOINT ambient_statement`);
    let out: T;
    try {
      out = await fn(a.tx);
    } catch (err) {
      await a.tx.execute(sql`ROLLBACK TO SAVEPOINT ambient_statement`);
      await a.tx.execute(sql`RELEASE SAVEPOINT ambient_statement`);
      throw err;
    }
    await a.tx.execute(sql`RELEASE SAVEPOINT ambient_statement`);
    return out;
  });
}

/** True when a statement on `exec` would join the ambient transaction (ambientStatement would take it). */
export function inAmbientTransaction(exec: object): boolean {
  const a = scope.getStore();
  return Boolean(a && a.state.open && a.root === exec);
}

/** The database object services hold: inside withAmbientTransaction it acts through the ambient transaction. */
export function ambientDatabase<D extends object>(db: D): D {
  const proxy: D = new Proxy(db, {
    get(target, prop, receiver) {
      const a = scope.getStore();
      if (!a || !a.state.open || a.root !== proxy) return Reflect.get(target, prop, receiver);
      if (prop === 'transaction')
        return <T>(fn: (tx: TxLike) => Promise<T>, config?: unknown) =>
          serial(a, () => a.tx.transaction((sp: TxLike) => scope.run({ ...a, tx: sp, tail: Promise.resolve() }, () => fn(sp)), config));
      if (prop === 'execute')
        return (query: SQL) => ambientStatement(proxy, (tx) => tx.execute(query)) ?? (target as unknown as TxLike).execute(query);
      const value = Reflect.get(a.tx, prop);
      return typeof value === 'function' ? value.bind(a.tx) : value;
    },
  });
  return proxy;
}

/**
 * Runs `fn` in one transaction of `db` (an ambientDatabase) that every use of `db` inside it joins; commits when
 * `fn` resolves, rolls back when it throws.
 */
export function withAmbientTransaction<T, X extends TxLike>(
  db: { transaction<R>(fn: (tx: X) => Promise<R>): Promise<R> },
  fn: (tx: X) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const state = { open: true };
    try {
      return await scope.run({ root: db, tx, state, tail: Promise.resolve() }, () => fn(tx));
    } finally {
      state.open = false;
    }
  });
}
