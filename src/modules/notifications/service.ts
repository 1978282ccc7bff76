import { sql, type SQL } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import {
  adminCreateBroadcast,
  adminEndBroadcast,
  adminGetPollResults,
  adminListBroadcasts,
  adminPreviewBroadcast,
  inAudience,
  type BroadcastRow,
} from './broadcasts.js';
import { createDeadLetters } from './dead-letters.js';
import type { NotificationsDeps } from './deps.js';
import { list, markAllRead, markRead } from './inbox.js';
import { pollsFor, publicPoll } from './polls.js';
import { createPushSubscriptions } from './push-subscriptions.js';
import { iso } from './rows.js';

export { checkPushEndpoint, MAX_PUSH_SUBSCRIPTIONS, SANDBOX_LOOPBACK_NAMES } from './push-subscriptions.js';
export type { Audience } from './broadcasts.js';

export type NotificationsService = ReturnType<typeof createNotificationsService>;

/** SQL condition: broadcast b is live and user u is in its audience. */
function visibleTo(now: Date): SQL {
  return sql`b.ended_at IS NULL AND b.starts_at <= ${now} AND (b.ends_at IS NULL OR b.ends_at > ${now})
    AND ${inAudience(sql`b.audience`)}`;
}

/** The live broadcasts the user is in the audience of, newest first, with their polls. */
async function listBroadcasts({ db, clock }: NotificationsDeps, userId: string, q: { limit: number; offset: number }) {
  const now = clock.now();
  const r = await rows<BroadcastRow>(
    db,
    sql`SELECT b.id, b.title, b.body, b.audience, b.starts_at, b.ends_at, b.ended_at, b.created_at
        FROM broadcasts b JOIN users u ON u.id = ${userId}
        WHERE ${visibleTo(now)} ORDER BY b.starts_at DESC, b.id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
  );
  const p = page(r, q.limit, q.offset);
  const polls = await pollsFor(
    db,
    p.items.map((b) => b.id),
    { userId },
  );
  return {
    ...p,
    items: p.items.map((b) => {
      const poll = polls.get(b.id);
      return {
        id: b.id,
        title: b.title,
        body: b.body,
        startsAt: iso(b.starts_at)!,
        endsAt: iso(b.ends_at),
        poll: poll ? publicPoll(poll) : null,
      };
    }),
  };
}

/** One vote per user per poll: poll_votes' primary key refuses the second, also under concurrency. */
async function votePoll({ db, clock }: NotificationsDeps, userId: string, pollId: string, optionId: string) {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const poll = await one<{ broadcast_id: string }>(
      tx,
      sql`SELECT p.broadcast_id FROM polls p JOIN broadcasts b ON b.id = p.broadcast_id JOIN users u ON u.id = ${userId}
          WHERE p.id = ${pollId} AND ${visibleTo(now)}`,
    );
    if (!poll) throw notFound('Poll');
    const option = await one(tx, sql`SELECT 1 AS x FROM poll_options WHERE id = ${optionId} AND poll_id = ${pollId}`);
    if (!option) throw notFound('Poll option');
    const inserted = await one(
      tx,
      sql`INSERT INTO poll_votes (poll_id, user_id, option_id, created_at) VALUES (${pollId}, ${userId}, ${optionId}, ${now})
          ON CONFLICT (poll_id, user_id) DO NOTHING RETURNING poll_id`,
    );
    if (!inserted) throw new AppError('ALREADY_VOTED', 'You have already voted in this poll');
    const view = (await pollsFor(tx, [poll.broadcast_id], { userId })).get(poll.broadcast_id)!;
    return { poll: publicPoll(view) };
  });
}

/** The inbox (spec 4.7), broadcasts and polls, push subscriptions and the dead letters of delivery jobs. */
export function createNotificationsService(deps: NotificationsDeps) {
  const { db, clock, config, resolver } = deps;
  return {
    // ---- inbox (spec 4.7) ----
    list: (userId: string, q: { limit: number; offset: number; unreadOnly?: boolean }) => list(deps, userId, q),
    markRead: (userId: string, id: string) => markRead(deps, userId, id),
    markAllRead: (userId: string) => markAllRead(deps, userId),

    // ---- broadcasts and polls ----
    listBroadcasts: (userId: string, q: { limit: number; offset: number }) => listBroadcasts(deps, userId, q),
    votePoll: (userId: string, pollId: string, optionId: string) => votePoll(deps, userId, pollId, optionId),
    adminCreateBroadcast: (adminId: string, input: Parameters<typeof adminCreateBroadcast>[2]) =>
      adminCreateBroadcast(deps, adminId, input),
    adminPreviewBroadcast: (input: Parameters<typeof adminPreviewBroadcast>[1]) => adminPreviewBroadcast(deps, input),
    adminEndBroadcast: (id: string) => adminEndBroadcast(deps, id),
    adminListBroadcasts: (q: Parameters<typeof adminListBroadcasts>[1]) => adminListBroadcasts(deps, q),
    adminGetPollResults: (pollId: string) => adminGetPollResults(deps, pollId),
    ...createPushSubscriptions({ db, clock, config, resolver }),
    ...createDeadLetters({ db, clock }),
  };
}
