import { sql } from 'drizzle-orm';
import { uuid } from '../kernel/ids.js';
import type { Executor } from './client.js';

/** One row of the operators' audit trail, written in the caller's transaction. */
export async function writeAudit(
  exec: Executor,
  a: { actorId: string | null; action: string; subjectType: string; subjectId: string; details: Record<string, unknown> | null; at: Date },
): Promise<void> {
  await exec.execute(sql`INSERT INTO audit_log (id, actor_id, action, subject_type, subject_id, details, created_at)
                         VALUES (${uuid()}, ${a.actorId}, ${a.action}, ${a.subjectType}, ${a.subjectId}, ${a.details === null ? null : JSON.stringify(a.details)}::jsonb, ${a.at})`);
}
