import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';

import { notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';

import { PUSH_JOB } from './delivery.js';

import { OUTBOX_EMAIL_JOB, OUTBOX_SMS_JOB } from './outbox.js';

import { inList, iso } from './rows.js';

/** adminListDeadLetters' orders, each a fixed ORDER BY: last failed first (the default), first failed, most attempts. */
export const DEAD_LETTER_SORTS = ['newest', 'oldest', 'attempts'] as const;
export type DeadLetterSort = (typeof DEAD_LETTER_SORTS)[number];
const ORDER: Record<DeadLetterSort, SQL> = {
  newest: sql`j.updated_at DESC, j.id DESC`,
  oldest: sql`j.updated_at ASC, j.id ASC`,
  attempts: sql`j.attempts DESC, j.updated_at DESC, j.id DESC`,
};

/** The delivery queues: their dead jobs are e-mail, SMS and push messages an operator may send again. */
const DELIVERY_QUEUES: string[] = [OUTBOX_EMAIL_JOB, OUTBOX_SMS_JOB, PUSH_JOB];

function channelOf(queue: string): 'email' | 'sms' | 'push' | 'job' {
  return queue === OUTBOX_EMAIL_JOB ? 'email' : queue === OUTBOX_SMS_JOB ? 'sms' : queue === PUSH_JOB ? 'push' : 'job';
}

/** Jobs that failed every retry, for operators: listed by channel (deliveries, or any other queue's as 'job'); deliveries retried one at a time. */
export function createDeadLetters({ db, clock }: { db: Db; clock: Clock }) {
  return {
    // ---- dead letters (operators) ----
    async adminListDeadLetters(q: { limit: number; offset: number; channel?: 'email' | 'sms' | 'push' | 'job'; sort?: DeadLetterSort }) {
      // No channel: every dead job, the dashboard's Dead letters count; 'job': any queue but the three deliveries.
      const queue =
        q.channel === 'email'
          ? sql`j.queue = ${OUTBOX_EMAIL_JOB}`
          : q.channel === 'sms'
            ? sql`j.queue = ${OUTBOX_SMS_JOB}`
            : q.channel === 'push'
              ? sql`j.queue = ${PUSH_JOB}`
              : q.channel === 'job'
                ? sql`j.queue NOT IN (${inList(DELIVERY_QUEUES)})`
                : sql`TRUE`;
      const r = await rows<{
        id: string;
        queue: string;
        payload: Record<string, unknown>;
        attempts: number;
        last_error: string | null;
        created_at: Date;
        updated_at: Date;
        user_id: string | null;
      }>(
        db,
        sql`SELECT j.id::text AS id, j.queue, j.payload, j.attempts, j.last_error, j.created_at, j.updated_at, s.user_id::text AS user_id
            FROM jobs j LEFT JOIN push_subscriptions s ON j.queue = ${PUSH_JOB} AND s.id::text = j.payload->>'subscriptionId'
            WHERE j.status = 'dead' AND ${queue}
            ORDER BY ${ORDER[q.sort ?? 'newest']} LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
      );
      const p = page(r, q.limit, q.offset);
      return {
        ...p,
        items: p.items.map((j) => ({
          id: j.id,
          channel: channelOf(j.queue),
          // Another queue's job: its queue names it; its payload (amounts, references) is not a message to show.
          recipient:
            j.queue === PUSH_JOB
              ? j.user_id
                ? `user:${j.user_id}`
                : 'subscription removed'
              : DELIVERY_QUEUES.includes(j.queue)
                ? String(j.payload.to ?? '')
                : j.queue,
          subject: DELIVERY_QUEUES.includes(j.queue) && typeof j.payload.subject === 'string' ? j.payload.subject : null,
          attempts: j.attempts,
          lastError: j.last_error,
          createdAt: iso(j.created_at)!,
          failedAt: iso(j.updated_at)!,
        })),
      };
    },

    /**
     * Puts a dead delivery job back in the queue with a fresh set of attempts. Another queue's dead job (a purchase's,
     * a refund's) is not found here: it is never run again by hand.
     */
    async adminRetryDeadLetter(id: string) {
      const r = await one<{ id: string }>(
        db,
        sql`UPDATE jobs SET status = 'queued', attempts = 0, run_at = ${clock.now()}, updated_at = ${clock.now()}
            WHERE id::text = ${id} AND status = 'dead' AND queue IN (${inList(DELIVERY_QUEUES)})
            RETURNING id::text AS id`,
      );
      if (!r) throw notFound('Dead letter');
      return { requeued: true };
    },
  };
}
