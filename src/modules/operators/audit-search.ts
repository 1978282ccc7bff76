import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { emailsOf } from '../identity/api.js';

/**
 * adminSearchAudit (issue 30): the audit trail newest first, filtered by operator, operation, target and time,
 * paged by keyset on (created_at, id) so a page costs the same at any depth. Each filter has its index
 * (migration 1001): (actor_id, created_at, id), (action, created_at, id), GIN on target_ids, (created_at, id).
 */
export interface AuditQuery {
  operatorId?: string;
  operation?: string;
  targetId?: string;
  /** Plain words or a reference (issue 44): each must appear in the operation's name, its targets, or its input or outcome. */
  words?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

type AuditRow = {
  id: string;
  created_at: string;
  actor_id: string | null;
  roles: string[] | null;
  action: string;
  outcome: string | null;
  targets: { type: string; id: string }[] | null;
  input: unknown;
  before_state: unknown;
  after_state: unknown;
  details: unknown;
  request_id: string | null;
  ip: string | null;
};

/** A timestamptz as PostgreSQL writes it: `2026-11-26 09:00:00.123+00`. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor is the last row's (created_at as the database wrote it, id), base64url: opaque to clients. */
export const encodeCursor = (at: string, id: string) => Buffer.from(`${at}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const iso = at?.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  if (!at || !id || !UUID.test(id) || !TIMESTAMP.test(at) || Number.isNaN(Date.parse(iso)))
    throw new AppError('VALIDATION_FAILED', 'cursor is not one this search gave', {
      issues: [{ path: 'cursor', message: 'unknown cursor' }],
    });
  return { at, id };
}

/**
 * The words of a plain search, at most five: "approve" finds adminApproveRequest, a purchase or top-up reference the
 * calls that named it. No index serves it: the newest-first walk stops at a page of matches (a rare word with no day
 * range reads further back).
 */
const wordsOf = (words: string | undefined) => (words ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 5);

export async function searchAudit(db: Db, q: AuditQuery) {
  const where: SQL[] = [];
  if (q.operatorId) where.push(sql`a.actor_id = ${q.operatorId}`);
  if (q.operation) where.push(sql`a.action = ${q.operation}`);
  if (q.targetId) where.push(sql`a.target_ids @> ARRAY[${q.targetId}]::text[]`);
  for (const word of wordsOf(q.words)) {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(a.action ILIKE ${like} OR a.input::text ILIKE ${like} OR a.after_state::text ILIKE ${like} OR a.details::text ILIKE ${like}
           OR a.target_ids::text ILIKE ${like})`,
    );
  }
  if (q.from) where.push(sql`a.created_at >= ${q.from}`);
  if (q.to) where.push(sql`a.created_at < ${q.to}`);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(sql`(a.created_at, a.id) < (${c.at}::timestamptz, ${c.id}::uuid)`);
  }
  const list = await rows<AuditRow>(
    db,
    sql`SELECT a.id::text AS id, a.created_at, a.actor_id::text AS actor_id, a.roles, a.action, a.outcome,
               coalesce(a.targets, CASE WHEN a.subject_id IS NULL THEN NULL
                                        ELSE jsonb_build_array(jsonb_build_object('type', a.subject_type, 'id', a.subject_id)) END) AS targets,
               a.input, a.before_state, a.after_state, a.details, a.request_id, a.ip
        FROM audit_log a
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY a.created_at DESC, a.id DESC LIMIT ${q.limit + 1}`,
  );
  const items = list.slice(0, q.limit);
  const emails = await emailsOf(
    db,
    items.flatMap((r) => (r.actor_id ? [r.actor_id] : [])),
  );
  const last = items[items.length - 1];
  return {
    items: items.map((r) => ({
      id: r.id,
      at: new Date(r.created_at).toISOString(),
      operatorId: r.actor_id,
      operatorEmail: r.actor_id ? (emails.get(r.actor_id) ?? null) : null,
      roles: r.roles ?? [],
      operation: r.action,
      outcome: r.outcome,
      targets: r.targets ?? [],
      input: r.input ?? null,
      before: r.before_state ?? null,
      after: r.after_state ?? null,
      details: r.details ?? null,
      requestId: r.request_id,
      ip: r.ip,
    })),
    nextCursor: list.length > q.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
