import { sql } from 'drizzle-orm';
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
  events.on('account.closed', async (exec, { userId }) => {
    const now = clock.now();
    await exec.execute(sql`DELETE FROM schedules WHERE user_id = ${userId}`);
    await exec.execute(
      sql`UPDATE support_threads SET status = 'closed', closed_at = ${now}, updated_at = ${now} WHERE user_id = ${userId} AND status = 'open'`,
    );
    await exec.execute(sql`UPDATE support_messages SET body = ${REMOVED}
                           WHERE author_role = 'user' AND thread_id IN (SELECT id FROM support_threads WHERE user_id = ${userId})`);
    await exec.execute(sql`UPDATE marketplace_orders SET delivery = ${JSON.stringify({ removed: true })}::jsonb
                           WHERE user_id = ${userId} AND status <> 'processing'`);
    await exec.execute(sql`UPDATE subscription_orders SET account = ${REMOVED}
                           WHERE user_id = ${userId} AND status IN ('fulfilled', 'failed', 'cancelled')`);
  });
}
