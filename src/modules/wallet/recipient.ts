import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { RowOf } from '../../db/rows.js';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import { answerOf, readOf, type Read } from '../../platform/reads.js';
import type { users } from '../identity/api.js';

/** The tier that unlocks transfers (spec 5.8), and with it the recipient's full name in lookupProfileByUsername. */
export const TRANSFER_TIER = 2;

/** A transfer's recipient as looked up by username. */
export type RecipientRow = Pick<RowOf<typeof users>, 'id' | 'full_name' | 'kyc_tier'> & {
  username: string;
};

/** "Ada Grace Obi" -> "A*** G*** O***": enough to notice a wrong person, too little to learn a name. */
export const maskName = (name: string) =>
  name
    .trim()
    .split(/\s+/)
    .map((w) => `${[...w][0]}***`)
    .join(' ');

/** The recipient look-up of a transfer, as a read: an operation's read-ahead reads it in the claim's round trip. */
export const recipientRead = (username: string): Read<RecipientRow> =>
  readOf(
    `wallet.recipient:${username.toLowerCase()}`,
    sql`SELECT json_build_object('id', id, 'username', username, 'full_name', full_name, 'kyc_tier', kyc_tier)
          FROM users WHERE username = ${username.toLowerCase()} AND status = 'active'`,
  );

/** "Ada Grace Obi" -> "Ada O" (a sentence's full stop follows it): how a transfer's recipient is told who sent it (issue 43); else @username. */
export const displayNameOf = (u: { full_name: string | null; username: string | null }): string | null => {
  const words = (u.full_name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]} ${[...words[words.length - 1]][0].toUpperCase()}`;
  if (words.length === 1) return words[0];
  return u.username ? `@${u.username}` : null;
};

/** recipientRead's answer: the request's read-ahead's when it read it, else read now. */
export async function activeUserByUsername(db: Db, username: string): Promise<RecipientRow> {
  const u = await answerOf(db, recipientRead(username));
  if (!u) throw new AppError('NOT_FOUND', `No active account has the username @${username.toLowerCase()}`);
  return u;
}

/**
 * lookupProfileByUsername: the minimal profile a sender needs to confirm the recipient. The full name only to a
 * caller of the tier that may transfer (Tier 2, a verified identity); anyone else, a brand-new account included,
 * gets it masked (docs/decisions.md), so free accounts cannot harvest names from usernames.
 */
export async function lookupProfile(db: Db, caller: AuthUser, username: string) {
  const u = await activeUserByUsername(db, username);
  const mayTransfer = caller.kycTier >= TRANSFER_TIER;
  return { username: u.username, fullName: mayTransfer || !u.full_name ? u.full_name : maskName(u.full_name) };
}
