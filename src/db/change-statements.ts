import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { pipelined, type Db, type Executor } from './client.js';

/**
 * A module's share of a change another module decides (a ledger posting, a purchase settled): its writes, made in
 * the deciding module's transaction exactly when the change is made, and what they answer. Each part is a statement
 * of its own, written by the module that owns its tables; the platform (runChange) sends the deciding statement and
 * every part in ONE round trip (node-postgres's pipeline mode: BEGIN, the statements, COMMIT written at once), so no
 * module's SQL runs inside another module's statement and a change still costs one round trip.
 *
 * A transfer is then one round trip: the posting, both notifications and the events' writes, each its own statement.
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
  /**
   * The same writes in a form that serves several changes at once (`mergeable`): in a batch (runChanges) the parts of
   * one `key` from all its changes are ONE statement. A part with an `output` is never merged.
   */
  readonly merge?: Merge;
  /**
   * The part as one whole statement over `when` instead of CTEs (the unit of work's writes, src/platform/change.ts):
   * it answers nothing. Used verbatim; `ctes` and `output` are then unused.
   */
  statement?(when: SQL): SQL;
  /** Never set: carries the answer's type. */
  readonly answer?: T;
}

/** A part's CTE name for a local name. */
export type Namer = (local: string) => SQL;

const LOCAL = /^[a-z][a-z0-9_]*$/;

const namer: Namer = (local) => {
  if (!LOCAL.test(local)) throw new Error(`parts: CTE name ${local} must be lower-case letters, digits and underscores`);
  return sql.raw(`part_${local}`);
};

/**
 * A part's writes for any number of changes: `data` is this change's share (JSON), `ctes` the CTE definitions that
 * write every change's share, reading FROM `each` (a relation, used as a FROM item: `FROM ${each}`, its alias
 * `each`) with one row per change that was made: its `data` (jsonb) and the made row's columns. A change that made
 * nothing has no row there, so it writes nothing. Parts of one `key` in a batch are written by the first one's
 * `ctes`: the key names the builder, and everything the builder puts in the statement beside `each` must be the same
 * for all parts of the key (what differs between changes goes in `data`).
 */
export interface Merge {
  /** What groups parts into one statement: a string, or the builder function itself (grouped by identity). */
  key: unknown;
  data: unknown;
  ctes?(each: SQL, name: Namer): SQL;
  /** The statement form: one whole statement over `each` (a relation, `... AS each`), instead of `ctes`. */
  statement?(each: SQL): SQL;
}

/**
 * A part written once per kind in a batch (runChanges): alone (runChange, runParts) it is the same statement over
 * one row, its `data` and `when`'s columns. It answers nothing (null).
 */
export function mergeable(key: string, data: unknown, ctes: (each: SQL, name: Namer) => SQL): Part {
  return {
    ctes: (when, name) => sql`${EACH} AS (SELECT *, ${JSON.stringify(data)}::jsonb AS data FROM ${when}), ${ctes(EACH_ITEM, name)}`,
    merge: { key, data, ctes },
  };
}

/**
 * A statement over `each` written once per builder in a batch (runChanges): parts with the same `statement`
 * function (by identity) are ONE statement, each change's `data` in its row of `each`. Alone, the same statement
 * over the made row with its `data`. It answers nothing.
 */
export function mergeableStatement(data: unknown, statement: (each: SQL) => SQL): Part {
  // The data as JSON only when the part is written alone: a batch writes its parts' data as one array.
  return {
    statement: (when) => statement(sql`(SELECT *, ${JSON.stringify(data ?? null)}::jsonb AS data FROM ${when}) AS each`),
    merge: { key: statement, data, statement },
  };
}

/** The relation a mergeable part reads (`parts_each` cannot meet a Namer's `part_` names). */
const EACH = sql.raw('parts_each');
const EACH_ITEM = sql.raw('parts_each AS each');

/** A part as a statement of its own over `when`, answering one row with one column, `answer`. */
export function partStatement(part: Part, when: SQL): SQL {
  if (part.statement) return part.statement(when);
  const answer = part.output ? part.output(namer) : sql`NULL`;
  return part.ctes ? sql`WITH ${part.ctes(when, namer)} SELECT ${answer} AS answer` : sql`SELECT ${answer} AS answer`;
}

/** The answers of part statements as read back: one value per part, in the parts' order. */
const answersOf = (results: readonly unknown[][]): unknown[] =>
  results.map((r) => (r[0] as { answer?: unknown } | undefined)?.answer ?? null);

/**
 * What the deciding statement hands its parts: the row it made, as a relation named `alias` with typed `columns`
 * (`id bigint, balances jsonb`). The deciding statement puts `mark` in its select list, evaluated exactly once (a
 * statement answering one row); the parts' statements, later in the same transaction, read the row back from a
 * transaction-local setting: a JSON object from each change's token to its row (one change, or several decided by
 * one statement: runChanges), so a part never sees another change's row.
 */
export interface Made {
  alias: string;
  columns: SQL;
}

/**
 * One change and its parts in one round trip: `decide(mark)` is the deciding statement (it must select `mark`, over
 * the relation it makes, `from`); each part is its own statement, reading the made row as `when`. In its own
 * transaction when `exec` is the database, in `exec`'s transaction otherwise. Answers the deciding statement's rows
 * and the parts' answers in their order.
 */
export async function runChange<R>(
  exec: Executor,
  made: Made,
  decide: (mark: (from: SQL) => SQL) => SQL,
  parts: readonly Part[],
): Promise<{ rows: R[]; answers: unknown[] }> {
  if (!parts.length) {
    const [r] = await pipelined(exec, [decide(() => sql`NULL`)], { transaction: false });
    return { rows: r as R[], answers: [] };
  }
  const token = randomUUID();
  // The made row as JSON under this change's token; '' when nothing was made, so an earlier change's row is replaced.
  const mark = (from: SQL) =>
    sql`set_config('parts.made', COALESCE((SELECT json_build_object(${token}::text, row_to_json(${sql.raw(made.alias)}))::text
          FROM ${from} AS ${sql.raw(made.alias)} LIMIT 1), ''), true)`;
  const { statements, answersOf: answers } = partStatements(parts, madeFor(made, token), made.alias);
  const results = await serially(exec, () => pipelined(exec, [decide(mark), ...statements], { transaction: true }));
  return { rows: results[0] as R[], answers: answers(results.slice(1)) };
}

/**
 * One change's parts as statements over `when` (named `alias`): the statement-form mergeable parts of one key are ONE
 * statement over all their data (a fan-out's jobs), every other part its own. `answersOf` maps the statements'
 * results back to the parts' answers (a merged part's: null).
 */
function partStatements(parts: readonly Part[], when: SQL, alias: string) {
  const groups = new Map<unknown, { merge: Merge; data: unknown[]; at: number }>();
  const mergeableHere = (p: Part) => Boolean(p.merge?.statement && !p.output);
  for (const p of parts) {
    if (!mergeableHere(p)) continue;
    const g = groups.get(p.merge!.key) ?? { merge: p.merge!, data: [], at: -1 };
    g.data.push(p.merge!.data);
    groups.set(p.merge!.key, g);
  }
  const statements: SQL[] = [];
  const answerAt = parts.map((p) => {
    const g = mergeableHere(p) ? groups.get(p.merge!.key)! : null;
    if (!g || g.data.length < 2) return statements.push(partStatement(p, when)) - 1;
    if (g.at < 0) {
      g.at = statements.length;
      const each = sql`(SELECT x.data, ${sql.raw(alias)}.* FROM jsonb_array_elements(${JSON.stringify(g.data)}::jsonb) AS x(data), ${when}) AS each`;
      statements.push(g.merge.statement!(each));
    }
    return -1;
  });
  return {
    statements,
    answersOf: (results: readonly unknown[][]) => {
      const answers = answersOf(results);
      return answerAt.map((i) => (i < 0 ? null : answers[i]));
    },
  };
}

/** The row a change with `token` made, as its parts read it (`when`): none when it made nothing. */
const madeFor = (made: Made, token: string) =>
  sql`(SELECT r.* FROM (SELECT NULLIF(current_setting('parts.made', true), '')::jsonb -> ${token}::text AS m) s,
        jsonb_to_record(s.m) AS r(${made.columns}) WHERE s.m IS NOT NULL) AS ${sql.raw(made.alias)}`;

/**
 * Several changes decided by ONE statement, with each change's parts, in one transaction and one round trip:
 * BEGIN, `decide(mark, tokens)`, the parts, COMMIT: the mergeable parts (`Part.merge`) one statement per key for all
 * the changes, then every other part its own statement (in the changes' order). The deciding statement gets a
 * token per change (in the changes' order) and must select `mark(from)` exactly once (an uncorrelated scalar
 * subquery) over the relation of the rows it made, which has a `token` column naming each row's change; a change
 * that made nothing has no row there and its parts write nothing. On the database only (its own transaction). Any
 * failure (a part's, the deciding statement's) rolls the whole transaction back and is thrown: the caller then runs
 * the changes one by one. Answers the deciding statement's rows and each change's parts' answers (a merged part's:
 * null, as alone).
 */
export async function runChanges<R>(
  db: Db,
  made: Made,
  decide: (mark: (from: SQL) => SQL, tokens: readonly string[]) => SQL,
  changes: readonly (readonly Part[])[],
): Promise<{ rows: R[]; answers: unknown[][] }> {
  const tokens = changes.map(() => randomUUID());
  const mark = (from: SQL) =>
    sql`set_config('parts.made', COALESCE((SELECT json_object_agg(${sql.raw(made.alias)}.token, row_to_json(${sql.raw(made.alias)}))::text
          FROM ${from} AS ${sql.raw(made.alias)}), ''), true)`;
  // Mergeable parts by key (one statement each, in the order the keys first appear), then the others one by one.
  const merged = new Map<unknown, { merge: Merge; each: { token: string; data: unknown }[] }>();
  const single: { k: number; j: number; statement: SQL }[] = [];
  changes.forEach((parts, k) =>
    parts.forEach((p, j) => {
      if (p.merge && !p.output) {
        const group = merged.get(p.merge.key) ?? { merge: p.merge, each: [] };
        group.each.push({ token: tokens[k], data: p.merge.data });
        merged.set(p.merge.key, group);
      } else single.push({ k, j, statement: partStatement(p, madeFor(made, tokens[k])) });
    }),
  );
  const statements = [decide(mark, tokens), ...[...merged.values()].map((g) => mergedStatement(made, g.merge, g.each))];
  const results = await pipelined(db, [...statements, ...single.map((s) => s.statement)], { transaction: true });
  const answers: unknown[][] = changes.map((parts) => parts.map(() => null));
  const singles = answersOf(results.slice(statements.length));
  single.forEach((s, i) => (answers[s.k][s.j] = singles[i]));
  return { rows: results[0] as R[], answers };
}

/**
 * One statement writing a mergeable kind for the changes of a batch: `each` is every change's data with the row it
 * made (read back by its token), none for a change that made nothing.
 */
function mergedStatement(made: Made, merge: Merge, each: { token: string; data: unknown }[]): SQL {
  const rowsOf = sql`SELECT x.data, r.* FROM jsonb_to_recordset(${JSON.stringify(each)}::jsonb) AS x(token text, data jsonb)
        CROSS JOIN (SELECT NULLIF(current_setting('parts.made', true), '')::jsonb AS all_made) s
        CROSS JOIN LATERAL jsonb_to_record(s.all_made -> x.token) AS r(${made.columns}) WHERE s.all_made -> x.token IS NOT NULL`;
  if (merge.statement) return merge.statement(sql`(${rowsOf}) AS each`);
  return sql`WITH ${EACH} AS (${rowsOf}), ${merge.ctes!(EACH_ITEM, namer)} SELECT NULL AS answer`;
}

/**
 * Changes on one transaction object are sent one after another: a change's parts must follow its own deciding
 * statement, never another's that a concurrent caller interleaved on the same connection.
 */
const tails = new WeakMap<object, Promise<unknown>>();
function serially<T>(exec: Executor, fn: () => Promise<T>): Promise<T> {
  if (!('rollback' in exec)) return fn(); // the database: each change gets a connection of its own
  const run = (tails.get(exec) ?? Promise.resolve()).then(fn, fn);
  tails.set(
    exec,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * Parts on their own, in the caller's transaction (their change is the transaction itself): `when` has one row, with
 * `columns` when the parts expect some and named `as` (a posting made step by step gives its `id` and `balances`,
 * named `posted` as in its one-statement form). One round trip for all of them. Returns the parts' answers.
 */
export async function runParts(
  exec: Executor,
  parts: readonly Part[],
  when: { columns?: Record<string, SQL>; as?: string } = {},
): Promise<unknown[]> {
  if (!parts.length) return [];
  const cols = Object.entries(when.columns ?? {}).map(([k, v]) => sql`${v} AS ${sql.raw(k)}`);
  const alias = when.as ?? 'made';
  const relation = sql`(SELECT ${cols.length ? sql.join(cols, sql`, `) : sql`1 AS made`}) AS ${sql.raw(alias)}`;
  const { statements, answersOf: answers } = partStatements(parts, relation, alias);
  return answers(await pipelined(exec, statements, { transaction: true }));
}

/**
 * Reads on their own, each its own statement, all in one round trip (outside any transaction): their answers in
 * their order.
 */
export async function runReads(exec: Executor, reads: readonly Part[], first?: SQL): Promise<{ first: unknown[]; answers: unknown[] }> {
  const statements = [...(first ? [first] : []), ...reads.map((p) => partStatement(p, sql`(SELECT 1) AS made`))];
  const results = await pipelined(exec, statements, { transaction: false });
  return { first: first ? results[0] : [], answers: answersOf(first ? results.slice(1) : results) };
}
