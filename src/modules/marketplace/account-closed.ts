import { sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../../kernel/clock.js';
import type { EventBus } from '../../lib/events.js';

/**
 * account.closed for every issue-9 table: personal data goes, money records stay. Schedules are deleted (no
 * more purchases), support threads close and the user's own messages are blanked, delivery details and
 * subscription accounts of finished orders are removed. Orders still processing keep what the operator needs
 * to deliver or refund them. Signed receipts stay as issued (altering them would void their signatures).
 */
export const REMOVED = '[removed: account closed]';

export function registerAccountClosedScrub({ events, clock }: { events: EventBus; clock: Clock }) {
  // One part, five writes on different rows: each CTE sees the rows as they were before the closure's statement.
  events.on('account.closed', ({ userId }) => {
    const now = clock.now();
    const made = (when: SQL) => sql`EXISTS (SELECT 1 FROM ${when})`;
    return {
      ctes: (when, name) => sql`
        ${name('schedules')} AS (DELETE FROM schedules WHERE user_id = ${userId}::uuid AND ${made(when)}),
        ${name('threads')} AS (UPDATE support_threads SET status = 'closed', closed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          WHERE user_id = ${userId}::uuid AND status = 'open' AND ${made(when)}),
        ${name('messages')} AS (UPDATE support_messages SET body = ${REMOVED}::text
          WHERE author_role = 'user' AND thread_id IN (SELECT id FROM support_threads WHERE user_id = ${userId}::uuid) AND ${made(when)}),
        ${name('market')} AS (UPDATE marketplace_orders SET delivery = ${JSON.stringify({ removed: true })}::jsonb
          WHERE user_id = ${userId}::uuid AND status <> 'processing' AND ${made(when)}),
        ${name('subs')} AS (UPDATE subscription_orders SET account = ${REMOVED}::text
          WHERE user_id = ${userId}::uuid AND status IN ('fulfilled', 'failed', 'cancelled') AND ${made(when)})`,
    };
  });
}
