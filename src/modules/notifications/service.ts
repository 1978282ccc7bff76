import type { broadcasts } from './schema.js';
import type { notifications } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql, type SQL } from 'drizzle-orm';

import { one, rows, type Db, type Executor } from '../../db/client.js';

import type { Config } from '../../config.js';

import type { Clock } from '../../kernel/clock.js';

import { uuid } from '../../kernel/ids.js';
import { kindOf, paramsOf } from './kinds.js';

import { type Resolver } from '../../lib/public-address.js';
import { AppError, notFound } from '../../kernel/errors.js';

import { page } from '../../kernel/paging.js';

import { createDeadLetters } from './dead-letters.js';

import { createPushSubscriptions } from './push-subscriptions.js';

export { checkPushEndpoint, MAX_PUSH_SUBSCRIPTIONS, SANDBOX_LOOPBACK_NAMES } from './push-subscriptions.js';
import { inList, iso } from './rows.js';

export type NotificationsService = ReturnType<typeof createNotificationsService>;

/** Audience of a broadcast: every condition given must hold; {} is everyone (docs/decisions.md). */
export interface Audience {
  minKycTier?: number;
  joinedAfter?: string;
  joinedBefore?: string;
}

type NotificationRow = Narrowed<
  Pick<RowOf<typeof notifications>, 'id' | 'kind' | 'title' | 'body' | 'data' | 'read_at' | 'created_at'>,
  { data: Record<string, unknown> | null }
>;
const notificationView = (r: NotificationRow) => ({
  id: r.id,
  kind: kindOf(r.kind),
  params: paramsOf(r.data),
  title: r.title,
  body: r.body,
  read: r.read_at !== null,
  createdAt: iso(r.created_at)!,
  ...(r.data ? { data: r.data } : {}),
});

type BroadcastRow = Narrowed<
  Pick<RowOf<typeof broadcasts>, 'id' | 'title' | 'body' | 'audience' | 'starts_at' | 'ends_at' | 'ended_at' | 'created_at'>,
  { audience: Audience }
>;

/** SQL condition: broadcast b is live and user u is in its audience. */
function visibleTo(now: Date): SQL {
  return sql`b.ended_at IS NULL AND b.starts_at <= ${now} AND (b.ends_at IS NULL OR b.ends_at > ${now})
    AND u.kyc_tier >= COALESCE((b.audience->>'minKycTier')::int, 0)
    AND (b.audience->>'joinedAfter' IS NULL OR u.created_at >= (b.audience->>'joinedAfter')::timestamptz)
    AND (b.audience->>'joinedBefore' IS NULL OR u.created_at < (b.audience->>'joinedBefore')::timestamptz)`;
}

function broadcastStatus(b: BroadcastRow, now: Date): 'scheduled' | 'active' | 'ended' {
  if (b.ended_at || (b.ends_at && new Date(b.ends_at) <= now)) return 'ended';
  return new Date(b.starts_at) > now ? 'scheduled' : 'active';
}

export function createNotificationsService({ db, clock, config, resolver }: { db: Db; clock: Clock; config: Config; resolver?: Resolver }) {
  async function unreadCount(exec: Executor, userId: string): Promise<number> {
    const r = await one<{ n: number }>(
      exec,
      sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId} AND read_at IS NULL`,
    );
    return r?.n ?? 0;
  }

  /** Poll blocks for a set of broadcasts; results only where the viewer voted (or for operators). */
  async function pollsFor(exec: Executor, broadcastIds: string[], viewer: { userId?: string; admin?: boolean }) {
    const out = new Map<string, PollView>();
    if (!broadcastIds.length) return out;
    const opts = await rows<{ poll_id: string; broadcast_id: string; question: string; option_id: string; label: string; votes: number }>(
      exec,
      sql`SELECT p.id AS poll_id, p.broadcast_id, p.question, o.id AS option_id, o.label,
                 (SELECT count(*)::int FROM poll_votes v WHERE v.option_id = o.id) AS votes
          FROM polls p JOIN poll_options o ON o.poll_id = p.id
          WHERE p.broadcast_id IN (${inList(broadcastIds)}) ORDER BY p.id, o.position`,
    );
    const mine = viewer.userId
      ? await rows<{ poll_id: string; option_id: string }>(
          exec,
          sql`SELECT v.poll_id, v.option_id FROM poll_votes v JOIN polls p ON p.id = v.poll_id
              WHERE v.user_id = ${viewer.userId} AND p.broadcast_id IN (${inList(broadcastIds)})`,
        )
      : [];
    const myVote = new Map(mine.map((m) => [m.poll_id, m.option_id]));
    for (const o of opts) {
      let p = out.get(o.broadcast_id);
      if (!p) {
        const vote = myVote.get(o.poll_id) ?? null;
        p = { id: o.poll_id, question: o.question, myVote: vote, showResults: Boolean(viewer.admin || vote), options: [], totalVotes: 0 };
        out.set(o.broadcast_id, p);
      }
      p.options.push({ id: o.option_id, label: o.label, votes: o.votes });
      p.totalVotes += o.votes;
    }
    return out;
  }

  const publicPoll = (p: PollView) =>
    p.showResults
      ? { id: p.id, question: p.question, myVote: p.myVote, totalVotes: p.totalVotes, options: p.options }
      : { id: p.id, question: p.question, myVote: p.myVote, options: p.options.map(({ id, label }) => ({ id, label })) };

  const adminBroadcastView = (b: BroadcastRow, poll: PollView | undefined, now: Date) => ({
    id: b.id,
    title: b.title,
    body: b.body,
    audience: b.audience,
    status: broadcastStatus(b, now),
    startsAt: iso(b.starts_at)!,
    endsAt: iso(b.ends_at),
    endedAt: iso(b.ended_at),
    createdAt: iso(b.created_at)!,
    poll: poll ? { id: poll.id, question: poll.question, totalVotes: poll.totalVotes, options: poll.options } : null,
  });

  async function adminGetBroadcast(id: string) {
    const b = await one<BroadcastRow>(
      db,
      sql`SELECT id, title, body, audience, starts_at, ends_at, ended_at, created_at FROM broadcasts WHERE id = ${id}`,
    );
    if (!b) throw notFound('Broadcast');
    const polls = await pollsFor(db, [id], { admin: true });
    return adminBroadcastView(b, polls.get(id), clock.now());
  }

  return {
    // ---- inbox (spec 4.7) ----
    async list(userId: string, q: { limit: number; offset: number; unreadOnly?: boolean }) {
      const r = await rows<NotificationRow>(
        db,
        sql`SELECT id, kind, title, body, data, read_at, created_at FROM notifications
            WHERE user_id = ${userId} ${q.unreadOnly ? sql`AND read_at IS NULL` : sql``}
            ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
      );
      const p = page(r, q.limit, q.offset);
      return { ...p, items: p.items.map(notificationView), unread: await unreadCount(db, userId) };
    },

    /** Another user's notification is NOT_FOUND (never reveal existence). Marking twice keeps the first read time. */
    async markRead(userId: string, id: string) {
      const r = await one<NotificationRow>(
        db,
        sql`UPDATE notifications SET read_at = COALESCE(read_at, ${clock.now()}) WHERE id = ${id} AND user_id = ${userId}
            RETURNING id, kind, title, body, data, read_at, created_at`,
      );
      if (!r) throw notFound('Notification');
      return { notification: notificationView(r), unread: await unreadCount(db, userId) };
    },

    async markAllRead(userId: string) {
      const r = await rows<{ id: string }>(
        db,
        sql`UPDATE notifications SET read_at = ${clock.now()} WHERE user_id = ${userId} AND read_at IS NULL RETURNING id`,
      );
      return { marked: r.length, unread: 0 };
    },

    // ---- broadcasts and polls ----
    async listBroadcasts(userId: string, q: { limit: number; offset: number }) {
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
    },

    /** One vote per user per poll: poll_votes' primary key refuses the second, also under concurrency. */
    async votePoll(userId: string, pollId: string, optionId: string) {
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
    },

    async adminCreateBroadcast(
      adminId: string,
      input: {
        title: string;
        body: string;
        audience: Audience;
        startsAt?: Date;
        endsAt?: Date;
        poll?: { question?: string; options: string[] };
      },
    ) {
      const now = clock.now();
      const startsAt = input.startsAt ?? now;
      if (input.endsAt && input.endsAt <= startsAt)
        throw new AppError('VALIDATION_FAILED', 'endsAt must be after startsAt', {
          issues: [{ path: 'endsAt', message: 'must be after startsAt' }],
        });
      if (input.endsAt && input.endsAt <= now)
        throw new AppError('VALIDATION_FAILED', 'endsAt must be in the future', {
          issues: [{ path: 'endsAt', message: 'must be in the future' }],
        });
      const id = uuid();
      await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO broadcasts (id, title, body, audience, starts_at, ends_at, created_by, created_at)
                             VALUES (${id}, ${input.title}, ${input.body}, ${JSON.stringify(input.audience)}::jsonb, ${startsAt}, ${input.endsAt ?? null}, ${adminId}, ${now})`);
        if (input.poll) {
          const pollId = uuid();
          await tx.execute(
            sql`INSERT INTO polls (id, broadcast_id, question, created_at) VALUES (${pollId}, ${id}, ${input.poll.question ?? input.title}, ${now})`,
          );
          let position = 0;
          for (const label of input.poll.options) {
            await tx.execute(
              sql`INSERT INTO poll_options (id, poll_id, label, position) VALUES (${uuid()}, ${pollId}, ${label}, ${position++})`,
            );
          }
        }
      });
      return { broadcast: await adminGetBroadcast(id) };
    },

    /** Ending twice is harmless: the first end time stays. */
    async adminEndBroadcast(id: string) {
      await db.execute(sql`UPDATE broadcasts SET ended_at = ${clock.now()} WHERE id = ${id} AND ended_at IS NULL`);
      return { broadcast: await adminGetBroadcast(id) };
    },

    async adminListBroadcasts(q: { limit: number; offset: number; status?: 'scheduled' | 'active' | 'ended' }) {
      const now = clock.now();
      const filter =
        q.status === 'ended'
          ? sql`WHERE (ended_at IS NOT NULL OR ends_at <= ${now})`
          : q.status === 'scheduled'
            ? sql`WHERE ended_at IS NULL AND starts_at > ${now}`
            : q.status === 'active'
              ? sql`WHERE ended_at IS NULL AND starts_at <= ${now} AND (ends_at IS NULL OR ends_at > ${now})`
              : sql``;
      const r = await rows<BroadcastRow>(
        db,
        sql`SELECT id, title, body, audience, starts_at, ends_at, ended_at, created_at FROM broadcasts ${filter}
            ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
      );
      const p = page(r, q.limit, q.offset);
      const polls = await pollsFor(
        db,
        p.items.map((b) => b.id),
        { admin: true },
      );
      return { ...p, items: p.items.map((b) => adminBroadcastView(b, polls.get(b.id), now)) };
    },

    async adminGetPollResults(pollId: string) {
      const p = await one<{ broadcast_id: string }>(db, sql`SELECT broadcast_id FROM polls WHERE id = ${pollId}`);
      if (!p) throw notFound('Poll');
      const view = (await pollsFor(db, [p.broadcast_id], { admin: true })).get(p.broadcast_id)!;
      return {
        poll: { id: view.id, broadcastId: p.broadcast_id, question: view.question, totalVotes: view.totalVotes, options: view.options },
      };
    },
    ...createPushSubscriptions({ db, clock, config, resolver }),
    ...createDeadLetters({ db, clock }),
  };
}

interface PollView {
  id: string;
  question: string;
  myVote: string | null;
  showResults: boolean;
  totalVotes: number;
  options: { id: string; label: string; votes: number }[];
}
