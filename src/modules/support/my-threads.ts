import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import type { SupportDeps } from './deps.js';
import { addMessage, getThread, listMessages, THREAD_COLS, threadView, type ThreadRow } from './threads.js';

async function ownThread(exec: Executor, userId: string, threadId: string) {
  const t = await getThread(exec, threadId);
  // Another user's thread is NOT_FOUND, never FORBIDDEN (docs/design.md §4).
  if (!t || t.user_id !== userId) throw notFound('Thread');
  return t;
}

/** The partial unique index (one open thread per user) settles concurrent calls: both get the same thread. */
export async function getOrCreateThread({ db, clock }: SupportDeps, userId: string) {
  const now = clock.now();
  const inserted = await one<{ id: string }>(
    db,
    sql`INSERT INTO support_threads (id, user_id, status, created_at, updated_at) VALUES (${uuid()}, ${userId}, 'open', ${now}, ${now})
        ON CONFLICT (user_id) WHERE status = 'open' DO NOTHING RETURNING id::text AS id`,
  );
  const t = await one<ThreadRow>(db, sql`SELECT ${THREAD_COLS} FROM support_threads t WHERE t.user_id = ${userId} AND t.status = 'open'`);
  return { thread: threadView(t!), created: Boolean(inserted) };
}

/** A page of the messages of the caller's own thread. */
export async function listMyThreadMessages(deps: SupportDeps, userId: string, threadId: string, limit: number, offset: number) {
  await ownThread(deps.db, userId, threadId);
  return listMessages(deps, threadId, limit, offset);
}

/** The caller writes in their own open thread. */
export async function send(deps: SupportDeps, userId: string, threadId: string, body: string) {
  return deps.db.transaction(async (tx) => {
    const t = await ownThread(tx, userId, threadId);
    if (t.status !== 'open') throw new AppError('CONFLICT', 'This conversation is closed; call getOrCreateThread to start a new one');
    return addMessage(deps, tx, threadId, userId, 'user', body);
  });
}
