import type { Table } from 'drizzle-orm';

type Columns<T extends Table> = T['_']['columns'];
type Nullable<C> = C extends { _: { notNull: true } } ? never : null;
/** int8 and numeric columns are read as text (`amount::text`): the drivers differ on them, text is exact on both. */
type AsRead<D> = D extends bigint ? string : D;

/**
 * A table's row as a raw `sql` query reads it: keyed by the column names the migrations create, typed by the
 * Drizzle definition (test/db/schema-drift.test.ts keeps the two equal), money as text. Row types are derived from
 * it (`Pick<RowOf<typeof users>, 'id' | 'email'>`) rather than written by hand; a column the database types loosely
 * (text, jsonb) is narrowed where the module reads it (Narrowed).
 */
export type RowOf<T extends Table> = {
  [K in keyof Columns<T> as Columns<T>[K]['_']['name']]: AsRead<Columns<T>[K]['_']['data']> | Nullable<Columns<T>[K]>;
};

/** A row with some columns narrowed beyond what their SQL type says (a jsonb document's shape, a text column's union). */
export type Narrowed<R, N extends { [K in keyof R]?: unknown }> = Omit<R, keyof N> & N;
