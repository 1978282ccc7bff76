import type { supportMessages } from './schema.js';
import type { supportThreads } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import { emailsOf } from '../identity/api.js';
import type { Work } from '../../platform/change.js';
import type { ThreadSort } from './inputs.js';

const THREAD_ORDER: Record<ThreadSort, SQL> = {
  recent: sql`COALESCE(t.last_message_at, t.created_at) DESC, t.id DESC`,
  waiting: sql`COALESCE(t.last_message_at, t.created_at) ASC, t.id ASC`,
  newest: sql`t.created_at DESC, t.id DESC`,
  oldest: sql`t.created_at ASC, t.id ASC`,
};

type ThreadRow = Narrowed<
  Pick<RowOf<typeof supportThreads>, 'id' | 'user_id' | 'status' | 'last_message_at' | 'last_author' | 'closed_at' | 'created_at'>,
  { status: 'open' | 'closed'; last_author: 'user' | 'operator' | null }
>;

type MessageRow = Narrowed<
  Pick<RowOf<typeof supportMessages>, 'id' | 'thread_id' | 'author_role' | 'body' | 'created_at'>,
  { author_role: 'user' | 'operator' }
>;

const THREAD_COLS = sql.raw(
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

export type SupportService = ReturnType<typeof createSupportService>;

export function createSupportService({ db, clock, work }: { db: Db; clock: Clock; work: Work }) {
  const getThread = (exec: Executor, id: string) =>
    one<ThreadRow>(exec, sql`SELECT ${THREAD_COLS} FROM support_threads t WHERE t.id = ${id}`);

  async function ownThread(exec: Executor, userId: string, threadId: string) {
    const t = await getThread(exec, threadId);
    // Another user's thread is NOT_FOUND, never FORBIDDEN (docs/design.md §4).
    if (!t || t.user_id !== userId) throw notFound('Thread');
    return t;
  }

  async function addMessage(exec: Executor, threadId: string, authorId: string, role: 'user' | 'operator', body: string) {
    const id = uuid();
    const now = clock.now();
    await exec.execute(sql`INSERT INTO support_messages (id, thread_id, author_id, author_role, body, created_at)
                           VALUES (${id}, ${threadId}, ${authorId}, ${role}, ${body}, ${now})`);
    await exec.execute(
      sql`UPDATE support_threads SET last_message_at = ${now}, last_author = ${role}, updated_at = ${now} WHERE id = ${threadId}`,
    );
    return messageView({ id, thread_id: threadId, author_role: role, body, created_at: now });
  }

  async function listMessages(threadId: string, limit: number, offset: number) {
    const list = await rows<MessageRow>(
      db,
      sql`SELECT id::text AS id, thread_id::text AS thread_id, author_role, body, created_at FROM support_messages
          WHERE thread_id = ${threadId} ORDER BY seq DESC LIMIT ${limit + 1} OFFSET ${offset}`,
    );
    return page(list.map(messageView), limit, offset);
  }

  return {
    /** The partial unique index (one open thread per user) settles concurrent calls: both get the same thread. */
    async getOrCreateThread(userId: string) {
      const now = clock.now();
      const inserted = await one<{ id: string }>(
        db,
        sql`INSERT INTO support_threads (id, user_id, status, created_at, updated_at) VALUES (${uuid()}, ${userId}, 'open', ${now}, ${now})
            ON CONFLICT (user_id) WHERE status = 'open' DO NOTHING RETURNING id::text AS id`,
      );
      const t = await one<ThreadRow>(
        db,
        sql`SELECT ${THREAD_COLS} FROM support_threads t WHERE t.user_id = ${userId} AND t.status = 'open'`,
      );
      return { thread: threadView(t!), created: Boolean(inserted) };
    },

    async listMyThreadMessages(userId: string, threadId: string, limit: number, offset: number) {
      await ownThread(db, userId, threadId);
      return listMessages(threadId, limit, offset);
    },

    async send(userId: string, threadId: string, body: string) {
      return db.transaction(async (tx) => {
        const t = await ownThread(tx, userId, threadId);
        if (t.status !== 'open') throw new AppError('CONFLICT', 'This conversation is closed; call getOrCreateThread to start a new one');
        return addMessage(tx, threadId, userId, 'user', body);
      });
    },

    async adminListThreads(opts: {
      status?: 'open' | 'closed';
      awaitingReply?: boolean;
      userId?: string;
      sort?: ThreadSort;
      limit: number;
      offset: number;
    }) {
      const list = await rows<ThreadRow>(
        db,
        sql`SELECT ${THREAD_COLS} FROM support_threads t
            WHERE (${opts.status ?? null}::text IS NULL OR t.status = ${opts.status ?? null})
              AND (${opts.userId ?? null}::uuid IS NULL OR t.user_id = ${opts.userId ?? null}::uuid)
              AND (NOT ${opts.awaitingReply ?? false} OR t.last_author = 'user')
            ORDER BY ${THREAD_ORDER[opts.sort ?? 'recent']} LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      const emails = await emailsOf(
        db,
        list.map((t) => t.user_id),
      );
      return page(
        list.map((t) => ({ ...threadView(t), userId: t.user_id, userEmail: emails.get(t.user_id)! })),
        opts.limit,
        opts.offset,
      );
    },

    async adminThreadMessages(threadId: string, limit: number, offset: number) {
      if (!(await getThread(db, threadId))) throw notFound('Thread');
      return listMessages(threadId, limit, offset);
    },

    /** The reply and its notification commit together (support_reply). */
    async adminReply(operatorId: string, threadId: string, body: string) {
      return db.transaction(async (tx) => {
        const t = await one<ThreadRow>(tx, sql`SELECT ${THREAD_COLS} FROM support_threads t WHERE t.id = ${threadId} FOR UPDATE`);
        if (!t) throw notFound('Thread');
        if (t.status !== 'open') throw new AppError('CONFLICT', 'This conversation is closed');
        const message = await addMessage(tx, threadId, operatorId, 'operator', body);
        await work
          .change(tx)
          .notify({
            userId: t.user_id,
            kind: 'support_reply',
            title: 'Support replied',
            body: body.length > 140 ? `${body.slice(0, 137)}...` : body,
            data: { threadId, messageId: message.id },
          })
          .commit();
        return message;
      });
    },

    async adminClose(operatorId: string, threadId: string) {
      const now = clock.now();
      const t = await one<ThreadRow>(
        db,
        sql`UPDATE support_threads t SET status = 'closed', closed_at = ${now}, closed_by = ${operatorId}, updated_at = ${now}
            WHERE t.id = ${threadId} AND t.status = 'open' RETURNING ${THREAD_COLS}`,
      );
      if (!t) {
        const existing = await getThread(db, threadId);
        if (!existing) throw notFound('Thread');
        throw new AppError('CONFLICT', 'This conversation is already closed');
      }
      return { ...threadView(t), userId: t.user_id };
    },
  };
}
