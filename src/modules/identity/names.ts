import { sql } from 'drizzle-orm';
import { plannedPerCall, rows, type Executor } from '../../db/client.js';

/**
 * Users whose profile name (`full_name`) starts with `name` or holds each of its words as a whole word, in any case:
 * "chidi ok" finds "Chidi Okafor" by its beginning, "okafor" and "okafor chidi" by its words. `name` is the
 * operator's text with its spaces collapsed; LIKE's own characters in it are taken literally. At most `limit` ids, in
 * name order. On users_full_name_prefix_idx and users_full_name_words_idx (migration 1202): the statement is planned
 * per call, so the prefix's range is read from the index with the text itself.
 */
export async function userIdsNamed(exec: Executor, name: string, limit: number): Promise<string[]> {
  const prefix = `${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const list = await rows<{ id: string }>(
    exec,
    plannedPerCall(sql`SELECT id::text AS id FROM users
        WHERE lower(full_name) LIKE lower(${prefix}) OR string_to_array(lower(full_name), ' ') @> string_to_array(lower(${name}), ' ')
        ORDER BY lower(full_name), id LIMIT ${limit}`),
  );
  return list.map((u) => u.id);
}
