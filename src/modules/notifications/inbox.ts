import type { notifications } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import type { NotificationsDeps } from './deps.js';
import { kindOf, paramsOf } from './kinds.js';
import { iso } from './rows.js';

type InboxDeps = Pick<NotificationsDeps, 'db' | 'clock'>;

type NotificationRow = Narrowed<
  Pick<RowOf<typeof notifications>, 'id' | 'kind' | 'title' | 'body' | 'data' | 'read_at' | 'created_at'>,
  { data: Record<string, unknown> | null }
>;
const notificationView = (r: NotificationRow) => ({
  id: r.id,
  kind: kindOf(r.kind),
  params: paramsOf(r.data),
  title: r.title,
  body: r.body,
  read: r.read_at !== null,
  createdAt: iso(r.created_at)!,
  ...(r.data ? { data: r.data } : {}),
});

async function unreadCount(exec: Executor, userId: string): Promise<number> {
  const r = await one<{ n: number }>(exec, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId} AND read_at IS NULL`);
  return r?.n ?? 0;
}

/** A page of the user's inbox (spec 4.7), newest first, with the unread count. */
export async function list({ db }: InboxDeps, userId: string, q: { limit: number; offset: number; unreadOnly?: boolean }) {
  const r = await rows<NotificationRow>(
    db,
    sql`SELECT id, kind, title, body, data, read_at, created_at FROM notifications
      WHERE user_id = ${userId} ${q.unreadOnly ? sql`AND read_at IS NULL` : sql``}
      ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
  );
  const p = page(r, q.limit, q.offset);
  return { ...p, items: p.items.map(notificationView), unread: await unreadCount(db, userId) };
}

/** Another user's notification is NOT_FOUND (never reveal existence). Marking twice keeps the first read time. */
export async function markRead({ db, clock }: InboxDeps, userId: string, id: string) {
  const r = await one<NotificationRow>(
    db,
    sql`UPDATE notifications SET read_at = COALESCE(read_at, ${clock.now()}) WHERE id = ${id} AND user_id = ${userId}
      RETURNING id, kind, title, body, data, read_at, created_at`,
  );
  if (!r) throw notFound('Notification');
  return { notification: notificationView(r), unread: await unreadCount(db, userId) };
}

/** Marks every unread notification of the user read. */
export async function markAllRead({ db, clock }: InboxDeps, userId: string) {
  const r = await rows<{ id: string }>(
    db,
    sql`UPDATE notifications SET read_at = ${clock.now()} WHERE user_id = ${userId} AND read_at IS NULL RETURNING id`,
  );
  return { marked: r.length, unread: 0 };
}
