import { sql, type SQL } from 'drizzle-orm';
import { one, type Executor } from './client.js';

/**
 * A module's share of a change another module decides (a ledger posting, a purchase settled): its writes, made by
 * the deciding statement exactly when the change is made, and what they answer. The module writes plain SQL for
 * its own tables; the platform (composeParts) places it in the statement and names its CTEs, so parts never
 * collide and the statement's text is the same from call to call (prepared once per connection, client.ts).
 *
 * A transfer is then one round trip: the posting, both notifications and the events' writes in one statement.
 */
export interface Part<T = unknown> {
  /**
   * CTE definitions (`${name('x')} AS (...)`, comma-separated) that read FROM `when`: a relation with one row when
   * the change is made and none when it is refused. Its columns are the deciding statement's (the ledger: `id`, the
   * ledger transaction's, and `balances`; a settled purchase: the purchase row); most parts only need the row.
   */
  ctes?(when: SQL, name: Namer): SQL;
  /** What the part answers: an SQL value over its own CTEs (omitted: null). */
  output?(name: Namer): SQL;
  /** Never set: carries the answer's type. */
  readonly answer?: T;
}

/** A part's CTE name for a local name: unique within the statement. */
export type Namer = (local: string) => SQL;

const LOCAL = /^[a-z][a-z0-9_]*$/;

function namerOf(index: number): Namer {
  return (local) => {
    if (!LOCAL.test(local)) throw new Error(`parts: CTE name ${local} must be lower-case letters, digits and underscores`);
    return sql.raw(`part${index}_${local}`);
  };
}

/**
 * The parts as CTE definitions to follow the deciding statement's own (each with a leading comma: empty without
 * parts), and one column expression holding their answers as a JSON array in the parts' order.
 */
export function composeParts(parts: readonly Part[], when: SQL): { ctes: SQL; answers: SQL } {
  const named = parts.map((p, i) => ({ p, name: namerOf(i) }));
  const ctes = sql.join(
    named.flatMap(({ p, name }) => (p.ctes ? [sql`, ${p.ctes(when, name)}`] : [])),
    sql``,
  );
  const answers = named.some(({ p }) => p.output)
    ? sql`json_build_array(${sql.join(
        named.map(({ p, name }) => (p.output ? p.output(name) : sql`NULL`)),
        sql`, `,
      )})`
    : sql`NULL::json`;
  return { ctes, answers };
}

/** The answers column of composeParts as read back: one value per part, in the parts' order. */
export function answersOf(parts: readonly Part[], raw: unknown): unknown[] {
  return Array.isArray(raw) ? raw : parts.map(() => null);
}

/**
 * Parts on their own, as one statement in the caller's transaction (their change is the transaction itself): `when`
 * has one row, with `columns` when the parts expect some and named `as` (a posting made step by step gives its
 * `id` and `balances`, named `posted` as in its one-statement form). Returns the parts' answers.
 */
export async function runParts(
  exec: Executor,
  parts: readonly Part[],
  when: { columns?: Record<string, SQL>; as?: string } = {},
): Promise<unknown[]> {
  if (!parts.length) return [];
  const cols = Object.entries(when.columns ?? {}).map(([k, v]) => sql`${v} AS ${sql.raw(k)}`);
  const { ctes, answers } = composeParts(parts, sql`made AS ${sql.raw(when.as ?? 'made')}`);
  const r = await one<{ answers: unknown }>(
    exec,
    sql`WITH made AS (SELECT ${cols.length ? sql.join(cols, sql`, `) : sql`1 AS made`})${ctes} SELECT ${answers} AS answers`,
  );
  return answersOf(parts, r?.answers);
}

/**
 * A read as a part: a scalar subquery (typically a json_build_object) answered with the statement it joins, typed
 * by what it answers (null when it finds no row). The module that owns the data builds it (kyc.eligibilityRead,
 * walletMoney.recipientRead); an operation's reads join its Idempotency-Key claim (registry `readAhead`).
 */
export const readOf = <T>(query: SQL): Part<T> => ({ output: () => sql`(${query})` });

/** An operation's reads, by the name its handler finds the answer under (ctx.ahead). */
export type Reads = Record<string, Part<unknown>>;

/** The answers of a set of reads, by name. */
export type ReadAnswers<A extends Reads> = { readonly [K in keyof A]: A[K] extends Part<infer T> ? T | null : never };
