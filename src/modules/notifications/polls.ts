import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/client.js';
import { inList } from './rows.js';

export interface PollView {
  id: string;
  question: string;
  myVote: string | null;
  showResults: boolean;
  totalVotes: number;
  options: { id: string; label: string; votes: number }[];
}

/** Poll blocks for a set of broadcasts; results only where the viewer voted (or for operators). */
export async function pollsFor(exec: Executor, broadcastIds: string[], viewer: { userId?: string; admin?: boolean }) {
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

/** A poll as a customer sees it: its results only once they voted. */
export const publicPoll = (p: PollView) =>
  p.showResults
    ? { id: p.id, question: p.question, myVote: p.myVote, totalVotes: p.totalVotes, options: p.options }
    : { id: p.id, question: p.question, myVote: p.myVote, options: p.options.map(({ id, label }) => ({ id, label })) };
