import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { uuid } from '../../lib/ids.js';

/**
 * "Notify" is owned by this module (issue 7). Other modules call emit() inside the same database transaction
 * as the change they announce, so a rolled-back change never notifies (outbox). Delivery to push and e-mail
 * hangs off the inserted row through jobs.
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

export type AfterEmit = (exec: Executor, notificationId: string, n: NotificationInput) => Promise<void>;

export interface Notifier {
  emit(exec: Executor, n: NotificationInput): Promise<string>;
  /** Delivery channels (push, e-mail) hook in here; they enqueue jobs in the same transaction. */
  onEmit(hook: AfterEmit): void;
}

export function createNotifier({ clock }: { clock: Clock }): Notifier {
  const hooks: AfterEmit[] = [];
  return {
    async emit(exec, n) {
      const id = uuid();
      await exec.execute(sql`INSERT INTO notifications (id, user_id, kind, title, body, data, created_at)
                             VALUES (${id}, ${n.userId}, ${n.kind}, ${n.title}, ${n.body}, ${n.data ? JSON.stringify(n.data) : null}::jsonb, ${clock.now()})`);
      for (const h of hooks) await h(exec, id, n);
      return id;
    },
    onEmit(hook) {
      hooks.push(hook);
    },
  };
}
