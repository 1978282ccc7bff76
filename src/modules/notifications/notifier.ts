import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { mergeable, runParts, type Namer, type Part } from '../../db/parts.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Work } from '../../platform/change.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { NotificationInput } from '../../kernel/notification.js';

/**
 * "Notify" is owned by this module. Other modules call emit() inside the same database transaction
 * as the change they announce, so a rolled-back change never notifies (outbox). Delivery to push, e-mail and SMS
 * hangs off the inserted rows through one fan-out job (DELIVER_JOB), written in the same statement as the rows.
 */
export type { NotificationInput, NotificationKind } from '../../kernel/notification.js';

/** What the fan-out job carries beside the notification's id (never in the inbox row). */
export const channelExtras = z.object({ emailOnly: z.string().max(2000).optional(), everyChannel: z.boolean().optional() });
export type ChannelExtras = z.infer<typeof channelExtras>;

function extrasOf(n: NotificationInput): ChannelExtras | undefined {
  if (!n.emailOnly && !n.everyChannel) return undefined;
  return { ...(n.emailOnly ? { emailOnly: n.emailOnly } : {}), ...(n.everyChannel ? { everyChannel: true } : {}) };
}

/**
 * The fan-out job (delivery.ts) of the notifications one statement emits: for each, it reads the user and enqueues
 * each channel. Payload { notificationId } for one, { notificationIds } for several.
 */
export const DELIVER_JOB = 'notify.deliver';
/** Most notifications one fan-out job covers. */
export const FAN_OUT_BATCH = 50;

export interface Notifier {
  /** Inserts the inbox row and its delivery job in one statement (one round trip inside the caller's transaction). */
  emit(exec: Executor, n: NotificationInput): Promise<string>;
  /** emit for several notifications, still one statement; ids in input order. */
  emitMany(exec: Executor, list: readonly NotificationInput[]): Promise<string[]>;
  /**
   * The same rows and jobs as emitMany, as a part of the statement that makes the change they announce (a ledger
   * posting, a purchase settled), written only if it is made: a transfer is one statement, notifications included.
   */
  notices(list: readonly NotificationInput[]): Part;
}

export function createNotifier({ clock, jobs, work }: { clock: Clock; jobs: JobQueue; work: Work }): Notifier {
  /**
   * The notification rows (their ids `ids`, in list order) and their fan-out jobs as a part, mergeable: in a batch of
   * postings, all the batch's notifications are ONE statement (each change's rows and jobs in its `data`).
   * One fan-out job per change (per FAN_OUT_BATCH rows), not per row: a transfer notifies both sides with one
   * job row instead of two (the notifications were a quarter of a transfer's cost).
   */
  const part = (list: readonly NotificationInput[], ids: readonly string[] = list.map(() => uuid())): Part => {
    const rows = list.map((n, i) => ({
      id: ids[i],
      user_id: n.userId,
      kind: n.kind,
      title: n.title,
      body: n.body,
      ...(n.data ? { data: n.data } : {}),
    }));
    const batches: number[][] = [];
    for (let i = 0; i < ids.length; i += FAN_OUT_BATCH) batches.push(ids.slice(i, i + FAN_OUT_BATCH).map((_, k) => i + k));
    const payloadOf = (b: number[]) => {
      if (b.length === 1) {
        const extras = extrasOf(list[b[0]]);
        return { notificationId: ids[b[0]], ...(extras ? { extras } : {}) };
      }
      const extras = Object.fromEntries(b.flatMap((i) => (extrasOf(list[i]) ? [[ids[i], extrasOf(list[i])]] : [])));
      return { notificationIds: b.map((i) => ids[i]), ...(Object.keys(extras).length ? { extras } : {}) };
    };
    return mergeable('notifications.notices', { rows, jobs: batches.map((b) => jobs.payloadOf(DELIVER_JOB, payloadOf(b))) }, ctes);
  };
  /** Every change's rows and jobs, read from `each` (a change's `data`: `{rows, jobs}`). */
  const ctes = (each: SQL, name: Namer) =>
    sql`${name('n')} AS (INSERT INTO notifications (id, user_id, kind, title, body, data, created_at)
          SELECT r.id, r.user_id, r.kind, r.title, r.body, r.data, ${clock.now()}::timestamptz
          FROM ${each}, jsonb_to_recordset(each.data -> 'rows') AS r(id uuid, user_id uuid, kind text, title text, body text, data jsonb)),
        ${name('j')} AS (${jobs.enqueueEachSql(DELIVER_JOB, sql`j.payload`, sql`${each}, jsonb_array_elements(each.data -> 'jobs') AS j(payload)`)})`;
  const emitMany = async (exec: Executor, list: readonly NotificationInput[]) => {
    if (!list.length) return [];
    // The rows and their fan-out jobs commit or roll back together with the caller's transaction, so a rolled-back
    // change never notifies.
    const ids = list.map(() => uuid());
    await runParts(exec, [part(list, ids)]);
    return ids;
  };
  // Every change's notices are written as this module's rows and fan-out jobs.
  work.provideNotices((list) => part(list));
  return {
    async emit(exec, n) {
      const [id] = await emitMany(exec, [n]);
      return id;
    },
    emitMany,
    notices: (list) => part(list),
  };
}
