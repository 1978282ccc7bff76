import { sql } from 'drizzle-orm';
import type { Clock } from '../../kernel/clock.js';
import type { EventBus } from '../../platform/change.js';

/**
 * account.closed for every issue-9 table: personal data goes, money records stay. Schedules are deleted (no
 * more purchases), support threads close and the user's own messages are blanked, delivery details and
 * subscription accounts of finished orders are removed. Orders still processing keep what the operator needs
 * to deliver or refund them. Signed receipts stay as issued (altering them would void their signatures).
 */
export const REMOVED = '[removed: account closed]';

export function registerAccountClosedScrub({ events, clock }: { events: EventBus; clock: Clock }) {
  // One statement, five writes on different rows: each sees the rows as they were before the closure's statement.
  events.on('account.closed', ({ userId }, change) => {
    const now = clock.now();
    change.write((each) => {
      const made = sql`EXISTS (SELECT 1 FROM ${each})`;
      return sql`WITH
        gone_schedules AS (DELETE FROM schedules WHERE user_id = ${userId}::uuid AND ${made}),
        closed_threads AS (UPDATE support_threads SET status = 'closed', closed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          WHERE user_id = ${userId}::uuid AND status = 'open' AND ${made}),
        blanked_messages AS (UPDATE support_messages SET body = ${REMOVED}::text
          WHERE author_role = 'user' AND thread_id IN (SELECT id FROM support_threads WHERE user_id = ${userId}::uuid) AND ${made}),
        scrubbed_orders AS (UPDATE marketplace_orders SET delivery = ${JSON.stringify({ removed: true })}::jsonb
          WHERE user_id = ${userId}::uuid AND status <> 'processing' AND ${made})
        UPDATE subscription_orders SET account = ${REMOVED}::text
          WHERE user_id = ${userId}::uuid AND status IN ('fulfilled', 'failed', 'cancelled') AND ${made}`;
    });
  });
}
