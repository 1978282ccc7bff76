import { sql } from 'drizzle-orm';

/** Timestamps as the API shows them (null stays null). */
export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** `a, b, c` for `IN (...)` with each value a parameter. */
export const inList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
