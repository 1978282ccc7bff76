import { sql } from 'drizzle-orm';
import { isUniqueViolation, one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import type { SupportDeps } from './deps.js';

interface CannedRow {
  id: string;
  title: string;
  body: string;
  updated_at: Date;
}

const COLS = sql.raw(`id::text AS id, title, body, updated_at`);

/** A saved reply as the console sees it ({name} in the body is filled in the console, never here). */
export function cannedView(r: CannedRow) {
  return { id: r.id, title: r.title, body: r.body, updatedAt: new Date(r.updated_at).toISOString() };
}
export type CannedReply = ReturnType<typeof cannedView>;

const duplicate = (err: unknown) =>
  isUniqueViolation(err, 'support_canned_replies_title') ? new AppError('CONFLICT', 'A saved reply with this title already exists') : err;

/** Every saved reply, by title. */
export async function listCannedReplies({ db }: SupportDeps) {
  const list = await rows<CannedRow>(db, sql`SELECT ${COLS} FROM support_canned_replies ORDER BY lower(title), id`);
  return { items: list.map(cannedView) };
}

/** Creates a saved reply (no id) or edits one; answers it and what it was before (null when new). */
export async function saveCannedReply(
  { db, clock }: SupportDeps,
  operatorId: string,
  input: { id?: string; title: string; body: string },
): Promise<{ reply: CannedReply; before: CannedReply | null }> {
  const now = clock.now();
  try {
    return await db.transaction(async (tx) => {
      if (!input.id) {
        const row = await one<CannedRow>(
          tx,
          sql`INSERT INTO support_canned_replies (id, title, body, updated_by, created_at, updated_at)
              VALUES (${uuid()}, ${input.title}, ${input.body}, ${operatorId}, ${now}, ${now}) RETURNING ${COLS}`,
        );
        return { reply: cannedView(row!), before: null };
      }
      const old = await one<CannedRow>(tx, sql`SELECT ${COLS} FROM support_canned_replies WHERE id = ${input.id} FOR UPDATE`);
      if (!old) throw notFound('Saved reply');
      const row = await one<CannedRow>(
        tx,
        sql`UPDATE support_canned_replies SET title = ${input.title}, body = ${input.body}, updated_by = ${operatorId},
              updated_at = ${now} WHERE id = ${input.id} RETURNING ${COLS}`,
      );
      return { reply: cannedView(row!), before: cannedView(old) };
    });
  } catch (err) {
    throw duplicate(err);
  }
}

/** Deletes a saved reply; answers what it was. */
export async function deleteCannedReply({ db }: SupportDeps, id: string): Promise<CannedReply> {
  const row = await one<CannedRow>(db, sql`DELETE FROM support_canned_replies WHERE id = ${id} RETURNING ${COLS}`);
  if (!row) throw notFound('Saved reply');
  return cannedView(row);
}
