import type { supportMessages } from './schema.js';
import type { supportThreads } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { page } from '../../kernel/paging.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { SupportDeps } from './deps.js';

export type ThreadRow = Narrowed<
  Pick<RowOf<typeof supportThreads>, 'id' | 'user_id' | 'status' | 'last_message_at' | 'last_author' | 'closed_at' | 'created_at'>,
  { status: 'open' | 'closed'; last_author: 'user' | 'operator' | null }
>;

type MessageRow = Narrowed<
  Pick<RowOf<typeof supportMessages>, 'id' | 'thread_id' | 'author_role' | 'body' | 'created_at'>,
  { author_role: 'user' | 'operator' }
>;

export const THREAD_COLS = sql.raw(
  `t.id::text AS id, t.user_id::text AS user_id, t.status, t.last_message_at, t.last_author, t.closed_at, t.created_at`,
);
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function threadView(t: ThreadRow) {
  return {
    id: t.id,
    status: t.status,
    lastMessageAt: iso(t.last_message_at),
    lastAuthor: t.last_author,
    closedAt: iso(t.closed_at),
    createdAt: new Date(t.created_at).toISOString(),
  };
}

export function messageView(m: MessageRow) {
  return { id: m.id, threadId: m.thread_id, author: m.author_role, body: m.body, createdAt: new Date(m.created_at).toISOString() };
}

/** A thread by id (undefined when there is none). */
export const getThread = (exec: Executor, id: string) =>
  one<ThreadRow>(exec, sql`SELECT ${THREAD_COLS} FROM support_threads t WHERE t.id = ${id}`);

/** Adds a message to a thread and marks the thread's last message and author. */
export async function addMessage(
  { clock }: { clock: Clock },
  exec: Executor,
  threadId: string,
  authorId: string,
  role: 'user' | 'operator',
  body: string,
) {
  const id = uuid();
  const now = clock.now();
  await exec.execute(sql`INSERT INTO support_messages (id, thread_id, author_id, author_role, body, created_at)
                         VALUES (${id}, ${threadId}, ${authorId}, ${role}, ${body}, ${now})`);
  await exec.execute(
    sql`UPDATE support_threads SET last_message_at = ${now}, last_author = ${role}, updated_at = ${now} WHERE id = ${threadId}`,
  );
  return messageView({ id, thread_id: threadId, author_role: role, body, created_at: now });
}

/** A page of a thread's messages, newest first. */
export async function listMessages({ db }: Pick<SupportDeps, 'db'>, threadId: string, limit: number, offset: number) {
  const list = await rows<MessageRow>(
    db,
    sql`SELECT id::text AS id, thread_id::text AS thread_id, author_role, body, created_at FROM support_messages
        WHERE thread_id = ${threadId} ORDER BY seq DESC LIMIT ${limit + 1} OFFSET ${offset}`,
  );
  return page(list.map(messageView), limit, offset);
}
