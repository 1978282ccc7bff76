import { sql, type SQL } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import { emailsOf } from '../identity/api.js';
import { reportsOf, resolveReports } from '../reports/api.js';
import type { SupportDeps } from './deps.js';
import type { ThreadSort } from './inputs.js';
import { namedInThread } from './linked.js';
import { addMessage, getThread, listMessages, THREAD_COLS, threadView, type ThreadRow } from './threads.js';

const THREAD_ORDER: Record<ThreadSort, SQL> = {
  recent: sql`COALESCE(t.last_message_at, t.created_at) DESC, t.id DESC`,
  waiting: sql`COALESCE(t.last_message_at, t.created_at) ASC, t.id ASC`,
  newest: sql`t.created_at DESC, t.id DESC`,
  oldest: sql`t.created_at ASC, t.id ASC`,
};

/** Which threads an operator lists: by status, customer and whether they await a reply, sorted and paged. */
export interface ThreadQuery {
  status?: 'open' | 'closed';
  awaitingReply?: boolean;
  userId?: string;
  sort?: ThreadSort;
  limit: number;
  offset: number;
}

/** Threads for operators, by status, customer and whether they await a reply, with the customers' e-mails. */
export async function adminListThreads({ db }: SupportDeps, opts: ThreadQuery) {
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
}

/** A page of any thread's messages. */
export async function adminThreadMessages(deps: SupportDeps, threadId: string, limit: number, offset: number) {
  if (!(await getThread(deps.db, threadId))) throw notFound('Thread');
  return listMessages(deps, threadId, limit, offset);
}

/** The reply and its notification commit together (support_reply). */
export async function adminReply(deps: SupportDeps, operatorId: string, threadId: string, body: string) {
  const { db, work } = deps;
  return db.transaction(async (tx) => {
    const t = await one<ThreadRow>(tx, sql`SELECT ${THREAD_COLS} FROM support_threads t WHERE t.id = ${threadId} FOR UPDATE`);
    if (!t) throw notFound('Thread');
    if (t.status !== 'open') throw new AppError('CONFLICT', 'This conversation is closed');
    const message = await addMessage(deps, tx, threadId, operatorId, 'operator', body);
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
}

/** What a thread's closing resolves its reports with (issue 44). */
export const CLOSED_WITH_THREAD = 'Resolved with the support conversation about it.';

/**
 * Closes an open thread; the customer's open reports whose reference the thread names are resolved with it, in its
 * transaction (issue 44), and their ids answered.
 */
export async function adminClose(deps: SupportDeps, operatorId: string, threadId: string) {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const now = clock.now();
    const t = await one<ThreadRow>(
      tx,
      sql`UPDATE support_threads t SET status = 'closed', closed_at = ${now}, closed_by = ${operatorId}, updated_at = ${now}
          WHERE t.id = ${threadId} AND t.status = 'open' RETURNING ${THREAD_COLS}`,
    );
    if (!t) {
      const existing = await getThread(tx, threadId);
      if (!existing) throw notFound('Thread');
      throw new AppError('CONFLICT', 'This conversation is already closed');
    }
    const open = (await reportsOf(tx, t.user_id)).filter((r) => r.status === 'open');
    const named = new Set(await namedInThread(tx, threadId, [...new Set(open.map((r) => r.reference))]));
    const ids = open.filter((r) => named.has(r.reference)).map((r) => r.id);
    const resolvedReportIds = await resolveReports(tx, deps, operatorId, ids, CLOSED_WITH_THREAD);
    return { thread: { ...threadView(t), userId: t.user_id }, resolvedReportIds };
  });
}

/** The reports of the thread's customer whose reference the thread names (issue 44), newest first. */
export async function adminThreadReports({ db }: SupportDeps, threadId: string) {
  const t = await getThread(db, threadId);
  if (!t) throw notFound('Thread');
  const all = await reportsOf(db, t.user_id);
  const named = new Set(await namedInThread(db, threadId, [...new Set(all.map((r) => r.reference))]));
  return { items: all.filter((r) => named.has(r.reference)) };
}
