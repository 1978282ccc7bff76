import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';

/**
 * A pg client that names parameterised statements after their text, so each connection parses and plans a
 * statement shape once and later runs only bind and execute (the one-statement posting is a large CTE
 * that PostgreSQL otherwise plans on every call). A name is a hash of the text, so one name never stands for two
 * texts. A text is named from its second use on, and at most MAX_NAMED texts per process: a text that never
 * repeats (a statement built with something per call in it) runs unnamed and leaves no prepared statement behind
 * on the server. Statements without parameters (BEGIN, COMMIT, scripts) stay unnamed. Turned off with
 * DATABASE_PREPARED_STATEMENTS=false for a pooler that cannot keep named statements (PgBouncer in transaction mode
 * before 1.21, docs/scaling.md).
 */
const MAX_NAMED = 5_000;
/** The beginning of a statement plannedPerCall marks: never named, so planned for each call. */
const PLANNED_PER_CALL = '/* planned per call */ ';

/**
 * A statement PostgreSQL plans afresh on each call, with its parameters and the table as it is now, instead of once per
 * connection. For statements over a table that can grow from a few hundred rows to tens of thousands within
 * minutes (the job queue in a burst): a prepared statement's plan is cached from its early calls, and one made while
 * the table was small (a seq scan, cheaper then than the index) stays in use until the table is analysed again.
 * Worth its planning (about half a millisecond) only for a statement that does much per call (a claim of many jobs).
 */
export function plannedPerCall(query: SQL): SQL {
  return sql`${sql.raw(PLANNED_PER_CALL)}${query}`;
}

const MAX_SEEN_ONCE = 20_000;
const statementNames = new Map<string, string>();
let seenOnce = new Set<string>();
function statementName(text: string): string | undefined {
  if (text.startsWith(PLANNED_PER_CALL)) return undefined;
  const known = statementNames.get(text);
  if (known) return known;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= MAX_SEEN_ONCE) seenOnce = new Set();
    seenOnce.add(text);
    return undefined;
  }
  if (statementNames.size >= MAX_NAMED) return undefined;
  seenOnce.delete(text);
  const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  statementNames.set(text, name);
  return name;
}
export class PreparingClient extends pg.Client {
  query(config: any, values?: any, callback?: any): any {
    if (
      config &&
      typeof config === 'object' &&
      typeof config.text === 'string' &&
      !config.name &&
      Array.isArray(values) &&
      values.length > 0
    ) {
      const name = statementName(config.text);
      if (name) config = { ...config, name };
    }
    return super.query(config, values, callback);
  }
}
