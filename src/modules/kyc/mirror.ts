import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';

/** The name the customer's latest approved Tier 2 record verified (the one transfers check), or null. */
export async function verifiedTier2Name(exec: Executor, userId: string): Promise<string | null> {
  const r = await one<{ verified_name: string | null }>(
    exec,
    sql`SELECT verified_name FROM kyc_submissions WHERE user_id = ${userId} AND tier = 2 AND status = 'approved'
        ORDER BY seq DESC LIMIT 1`,
  );
  return r?.verified_name ?? null;
}

/**
 * Test mode (issue 45): a shadow account's Tier 2 as its live customer's was verified, under the same name, so a test
 * key's transfer passes the same check as a live one. One statement: the open Tier 2 record made approved with this
 * name, or a new one; nothing is written when it already is.
 */
export async function recordVerifiedTier2(exec: Executor, userId: string, verifiedName: string, now: Date): Promise<void> {
  await exec.execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, created_at, updated_at, reviewed_at)
      VALUES (${randomUUID()}, ${userId}, 2, 'approved', '[]'::jsonb, ${verifiedName}, '{"mirroredFrom":"live"}'::jsonb, ${now}, ${now}, ${now})
      ON CONFLICT (user_id, tier) WHERE status IN ('pending', 'approved') DO UPDATE
        SET status = 'approved', verified_name = EXCLUDED.verified_name, updated_at = EXCLUDED.updated_at, reviewed_at = EXCLUDED.reviewed_at
        WHERE kyc_submissions.status <> 'approved' OR kyc_submissions.verified_name IS DISTINCT FROM EXCLUDED.verified_name`);
}
