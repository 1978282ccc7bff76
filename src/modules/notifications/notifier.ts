import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { uuid } from '../../lib/ids.js';

/**
 * "Notify" is owned by this module (issue 7). Other modules call emit() inside the same database transaction
 * as the change they announce, so a rolled-back change never notifies (outbox). Delivery to push, e-mail and SMS
 * hangs off the inserted row through one fan-out job (DELIVER_JOB), written in the same statement as the row.
 */
export type NotificationKind =
  | 'topup_credited'
  | 'purchase_delivered'
  | 'purchase_failed'
  | 'purchase_refunded'
  | 'transfer_sent'
  | 'transfer_received'
  | 'kyc_decision'
  | 'login_alert'
  | 'support_reply'
  | 'savings_matured'
  | 'loan_due'
  | 'schedule_failed'
  | 'report_resolved'
  | 'order_update'
  | 'wallet_adjusted'
  | 'broadcast'
  | 'general';

export interface NotificationInput {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  data?: Record<string, unknown>;
}

/** The fan-out job (delivery.ts) one emitted notification enqueues; it reads the user and enqueues each channel. */
export const DELIVER_JOB = 'notify.deliver';

export interface Notifier {
  /** Inserts the inbox row and its delivery job in one statement (one round trip inside the caller's transaction). */
  emit(exec: Executor, n: NotificationInput): Promise<string>;
  /** emit for several notifications, still one statement; ids in input order. */
  emitMany(exec: Executor, list: readonly NotificationInput[]): Promise<string[]>;
}

export function createNotifier({ clock, jobs }: { clock: Clock; jobs: JobQueue }): Notifier {
  const emitMany = async (exec: Executor, list: readonly NotificationInput[]) => {
    if (!list.length) return [];
    const now = clock.now();
    const ids = list.map(() => uuid());
    const rowsSql = list.map(
      (n, i) => sql`(${ids[i]}, ${n.userId}, ${n.kind}, ${n.title}, ${n.body}, ${n.data ? JSON.stringify(n.data) : null}::jsonb, ${now})`,
    );
    // Data-modifying CTEs run whether or not the outer statement reads them: the rows and their fan-out jobs
    // commit or roll back together with the caller's transaction, so a rolled-back change never notifies.
    const deliver = ids.map((id) => jobs.enqueueSql(DELIVER_JOB, { notificationId: id }));
    const last = deliver.pop()!;
    const more = deliver.map((q, i) => sql`, job${sql.raw(String(i))} AS (${q})`);
    await exec.execute(sql`WITH inserted AS (
                             INSERT INTO notifications (id, user_id, kind, title, body, data, created_at) VALUES ${sql.join(rowsSql, sql`, `)})
                           ${sql.join(more)} ${last}`);
    return ids;
  };
  return {
    async emit(exec, n) {
      const [id] = await emitMany(exec, [n]);
      return id;
    },
    emitMany,
  };
}
