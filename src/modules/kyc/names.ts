import { sql } from 'drizzle-orm';
import { plannedPerCall, rows, type Executor } from '../../db/client.js';

/**
 * Users with an approved KYC submission whose verified name (the name the NIN or bank record gave) starts with
 * `name` or holds each of its words as a whole word, in any case; LIKE's own characters in `name` are taken
 * literally. At most `limit` ids, in name order. On kyc_submissions_verified_name_prefix_idx and
 * kyc_submissions_verified_name_words_idx (migration 1202), planned per call like identity's userIdsNamed.
 */
export async function userIdsWithVerifiedName(exec: Executor, name: string, limit: number): Promise<string[]> {
  const prefix = `${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const list = await rows<{ user_id: string }>(
    exec,
    plannedPerCall(sql`SELECT user_id::text AS user_id FROM kyc_submissions
        WHERE status = 'approved'
          AND (lower(verified_name) LIKE lower(${prefix})
               OR string_to_array(lower(verified_name), ' ') @> string_to_array(lower(${name}), ' '))
        GROUP BY user_id ORDER BY min(lower(verified_name)), user_id LIMIT ${limit}`),
  );
  return list.map((s) => s.user_id);
}
