import type { ReadReplica } from '../../db/replica.js';
import type { Clock } from '../../kernel/clock.js';
import { containsPattern, historyRange } from '../../kernel/days.js';
import { notFound } from '../../kernel/errors.js';
import * as repo from './repository.js';
import { toTransaction } from './view.js';

/**
 * The caller's own purchases, newest first, a page at a time (read where the caller's reads go); issue 43: within a
 * range of Lagos days (from..to, at most 366) and matching a search (reference, recipient, service, product words).
 */
export async function listMine(
  { replica, clock }: { replica: ReadReplica; clock: Clock },
  userId: string,
  f: { status?: string; service?: string; from?: string; to?: string; q?: string; limit: number; offset: number },
) {
  const range = historyRange(f, clock.now());
  const list = await repo.listOwnTransactions(replica.forUser(userId), userId, {
    ...f,
    start: range?.start,
    end: range?.end,
    like: containsPattern(f.q),
  });
  return { items: list.slice(0, f.limit).map(toTransaction), limit: f.limit, offset: f.offset, hasMore: list.length > f.limit };
}

/** One of the caller's own purchases (NOT_FOUND for another's). */
export async function getMine(replica: ReadReplica, userId: string, id: string) {
  const row = await repo.getOwnTransaction(replica.forUser(userId), userId, id);
  if (!row) throw notFound('VTU transaction');
  return toTransaction(row);
}
