import { sql } from 'drizzle-orm';
import { uuid } from '../kernel/ids.js';
import { redactSecrets } from '../kernel/redaction.js';
import type { Executor } from './client.js';

/**
 * One row of the audit trail written by code outside an operator call (automatic KYC decisions, a customer's own
 * credential changes), in the caller's transaction. Every operator call's row is the registry's
 * (http/admin-audit.ts); its subject is also its one target, so adminSearchAudit finds it by target. Its details
 * are redacted like an operator call's before/after (kernel/redaction.ts).
 */
export async function writeAudit(
  exec: Executor,
  a: { actorId: string | null; action: string; subjectType: string; subjectId: string; details: Record<string, unknown> | null; at: Date },
): Promise<void> {
  await exec.execute(sql`INSERT INTO audit_log (id, actor_id, action, subject_type, subject_id, details, created_at, targets, target_ids)
                         VALUES (${uuid()}, ${a.actorId}, ${a.action}, ${a.subjectType}, ${a.subjectId}, ${a.details === null ? null : JSON.stringify(redactSecrets(a.details))}::jsonb, ${a.at},
                                 jsonb_build_array(jsonb_build_object('type', ${a.subjectType}::text, 'id', ${a.subjectId}::text)), ARRAY[${a.subjectId}::text])`);
}
