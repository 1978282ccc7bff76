import type { broadcasts } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql, type SQL } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { uuid } from '../../kernel/ids.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import type { NotificationsDeps } from './deps.js';
import { pollsFor, type PollView } from './polls.js';
import { iso } from './rows.js';
import { countAccounts } from '../identity/api.js';

type BroadcastDeps = Pick<NotificationsDeps, 'db' | 'clock'>;

/** Audience of a broadcast: every condition given must hold; {} is everyone (docs/decisions.md). */
export interface Audience {
  minKycTier?: number;
  joinedAfter?: string;
  joinedBefore?: string;
}

export type BroadcastRow = Narrowed<
  Pick<RowOf<typeof broadcasts>, 'id' | 'title' | 'body' | 'audience' | 'starts_at' | 'ends_at' | 'ended_at' | 'created_at'>,
  { audience: Audience }
>;

function broadcastStatus(b: BroadcastRow, now: Date): 'scheduled' | 'active' | 'ended' {
  if (b.ended_at || (b.ends_at && new Date(b.ends_at) <= now)) return 'ended';
  return new Date(b.starts_at) > now ? 'scheduled' : 'active';
}

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

async function adminGetBroadcast({ db, clock }: BroadcastDeps, id: string) {
  const b = await one<BroadcastRow>(
    db,
    sql`SELECT id, title, body, audience, starts_at, ends_at, ended_at, created_at FROM broadcasts WHERE id = ${id}`,
  );
  if (!b) throw notFound('Broadcast');
  const polls = await pollsFor(db, [id], { admin: true });
  return adminBroadcastView(b, polls.get(id), clock.now());
}

/** What a broadcast's operator writes: the message, its audience, when it shows, and an optional poll. */
export interface BroadcastDraft {
  title: string;
  body: string;
  audience: Audience;
  startsAt?: Date;
  endsAt?: Date;
  poll?: { question?: string; options: string[] };
}

/**
 * SQL condition: user `u` is in the audience `audience` (a jsonb expression): every condition given holds. The inbox
 * (visibleTo) and the preview's count use the same one.
 */
export function inAudience(audience: SQL): SQL {
  return sql`u.kyc_tier >= COALESCE((${audience}->>'minKycTier')::int, 0)
    AND (${audience}->>'joinedAfter' IS NULL OR u.created_at >= (${audience}->>'joinedAfter')::timestamptz)
    AND (${audience}->>'joinedBefore' IS NULL OR u.created_at < (${audience}->>'joinedBefore')::timestamptz)`;
}

/** When a draft starts (now unless scheduled); an end before its start or in the past is refused. */
function startOf(input: BroadcastDraft, now: Date): Date {
  const startsAt = input.startsAt ?? now;
  if (input.endsAt && input.endsAt <= startsAt)
    throw new AppError('VALIDATION_FAILED', 'endsAt must be after startsAt', {
      issues: [{ path: 'endsAt', message: 'must be after startsAt' }],
    });
  if (input.endsAt && input.endsAt <= now)
    throw new AppError('VALIDATION_FAILED', 'endsAt must be in the future', {
      issues: [{ path: 'endsAt', message: 'must be in the future' }],
    });
  return startsAt;
}

/**
 * What a broadcast would do, before it is created (issue 44): the message as customers will see it, how many accounts
 * its audience holds now, and when it starts showing. Writes nothing.
 */
export async function adminPreviewBroadcast({ db, clock }: BroadcastDeps, input: BroadcastDraft) {
  const now = clock.now();
  const startsAt = startOf(input, now);
  const n = await countAccounts(db, input.audience);
  return {
    message: {
      title: input.title,
      body: input.body,
      poll: input.poll ? { question: input.poll.question ?? input.title, options: input.poll.options } : null,
    },
    audienceCount: n,
    startsAt: startsAt.toISOString(),
    scheduled: startsAt > now,
    endsAt: input.endsAt?.toISOString() ?? null,
  };
}

/** Creates a broadcast (and its poll, when given) for an audience, from now or a later start. */
export async function adminCreateBroadcast(deps: BroadcastDeps, adminId: string, input: BroadcastDraft) {
  const { db, clock } = deps;
  const now = clock.now();
  const startsAt = startOf(input, now);
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
  return { broadcast: await adminGetBroadcast(deps, id) };
}

/** Ending twice is harmless: the first end time stays. */
export async function adminEndBroadcast(deps: BroadcastDeps, id: string) {
  await deps.db.execute(sql`UPDATE broadcasts SET ended_at = ${deps.clock.now()} WHERE id = ${id} AND ended_at IS NULL`);
  return { broadcast: await adminGetBroadcast(deps, id) };
}

/** A page of broadcasts for operators, newest first, by status. */
export async function adminListBroadcasts(
  { db, clock }: BroadcastDeps,
  q: { limit: number; offset: number; status?: 'scheduled' | 'active' | 'ended' },
) {
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
}

/** A poll's results for operators. */
export async function adminGetPollResults({ db }: BroadcastDeps, pollId: string) {
  const p = await one<{ broadcast_id: string }>(db, sql`SELECT broadcast_id FROM polls WHERE id = ${pollId}`);
  if (!p) throw notFound('Poll');
  const view = (await pollsFor(db, [p.broadcast_id], { admin: true })).get(p.broadcast_id)!;
  return {
    poll: { id: view.id, broadcastId: p.broadcast_id, question: view.question, totalVotes: view.totalVotes, options: view.options },
  };
}
