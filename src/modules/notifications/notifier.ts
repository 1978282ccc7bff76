import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { JobQueue } from '../../jobs/queue.js';
import type { Change, Work } from '../../platform/change.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import type { NotificationInput } from '../../kernel/notification.js';

/**
 * "Notify" is owned by this module. Other modules say `change.notify(...)` on the change the notice announces, so a
 * rolled-back or refused change never notifies (outbox). Delivery to push, e-mail and SMS hangs off the inserted rows
 * through one fan-out job (DELIVER_JOB), written with the rows.
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

/** The notifications module's part of every change: how the notices a change carries are written. */
export interface Notifier {
  /**
   * Writes `list` with `change`: the inbox rows (their ids `ids`, in list order) and one fan-out job per change (per
   * FAN_OUT_BATCH rows), not per row: a transfer notifies both sides with one job row. Rows and jobs are ONE statement
   * (the notices are a quarter of a transfer's cost), and so are the rows and jobs of a whole batch of changes (one
   * builder). The fan-out job is this module's own, written beside its rows; everyone else enqueues on the change.
   */
  write(change: Change, list: readonly NotificationInput[], ids?: readonly string[]): void;
}

export function createNotifier({ clock, jobs, work }: { clock: Clock; jobs: JobQueue; work: Work }): Notifier {
  /**
   * Every change's rows and fan-out jobs, read from `each` (a change's `data`: `{rows, jobs}`), named once: its
   * parameters are sent and parsed once for both.
   */
  const insertRows = (each: SQL) =>
    sql`WITH e AS (SELECT each.data FROM ${each}),
        n AS (INSERT INTO notifications (id, user_id, kind, title, body, data, created_at)
          SELECT r.id, r.user_id, r.kind, r.title, r.body, r.data, ${clock.now()}::timestamptz
          FROM e, jsonb_to_recordset(e.data -> 'rows') AS r(id uuid, user_id uuid, kind text, title text, body text, data jsonb))
        ${jobs.enqueueEachSql(DELIVER_JOB, sql`j.payload`, sql`e, jsonb_array_elements(e.data -> 'jobs') AS j(payload)`)}`;
  const notifier: Notifier = {
    write(change, list, ids = list.map(() => uuid())) {
      if (!list.length) return;
      const rows = list.map((n, i) => ({
        id: ids[i],
        user_id: n.userId,
        kind: n.kind,
        title: n.title,
        body: n.body,
        ...(n.data ? { data: n.data } : {}),
      }));
      const fanOuts = [];
      for (let i = 0; i < ids.length; i += FAN_OUT_BATCH) fanOuts.push(jobs.payloadOf(DELIVER_JOB, fanOutPayload(list, ids, i)));
      change.write(insertRows, { rows, jobs: fanOuts });
    },
  };
  // Every change's notices are written as this module's rows and fan-out jobs.
  work.provideNotices((change, list) => notifier.write(change, list));
  return notifier;
}

/** The fan-out job's payload for the rows from `from` (FAN_OUT_BATCH at most). */
function fanOutPayload(list: readonly NotificationInput[], ids: readonly string[], from: number) {
  const b = ids.slice(from, from + FAN_OUT_BATCH).map((_, k) => from + k);
  if (b.length === 1) {
    const extras = extrasOf(list[b[0]]);
    return { notificationId: ids[b[0]], ...(extras ? { extras } : {}) };
  }
  const extras = Object.fromEntries(b.flatMap((i) => (extrasOf(list[i]) ? [[ids[i], extrasOf(list[i])]] : [])));
  return { notificationIds: b.map((i) => ids[i]), ...(Object.keys(extras).length ? { extras } : {}) };
}
