import { sql } from 'drizzle-orm';
import { one, type Tx } from '../../db/client.js';
import { DAY } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import { run, target, type ApprovalRequestInput } from './actions.js';
import type { ApprovalDeps } from './deps.js';
import { insertRequest, notOwnMoney } from './requests.js';
import { readThresholds, type ApprovalAction } from './thresholds.js';

/** The window over which one operator's directly applied actions add up (issue 41). */
export const DIRECT_WINDOW_MS = DAY;

/** A directly applied action that would take its maker past the threshold over the window: it waits instead. */
class OverDirectBudget extends Error {}

/**
 * The claim of an action applied at once, in the action's own transaction before any money moves: adds it to its
 * maker's total of the last DIRECT_WINDOW_MS, or refuses (OverDirectBudget) when that would reach the threshold.
 * Same-maker applications take turns on an advisory lock, so concurrent ones cannot both fit.
 */
const directClaim =
  ({ clock }: Pick<ApprovalDeps, 'clock'>, makerId: string, action: ApprovalAction, size: bigint, limit: bigint) =>
  async (tx: Tx) => {
    const now = clock.now();
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`approval_direct:${makerId}:${action}`}))`);
    const used = await one<{ total: string }>(
      tx,
      sql`SELECT COALESCE(sum(amount), 0)::text AS total FROM approval_direct
          WHERE maker_id = ${makerId} AND action = ${action} AND created_at > ${new Date(now.getTime() - DIRECT_WINDOW_MS)}`,
    );
    if (BigInt(used!.total) + size >= limit) throw new OverDirectBudget();
    await tx.execute(sql`INSERT INTO approval_direct (id, maker_id, action, amount, created_at)
                         VALUES (${prefixedId('apd', now.getTime())}, ${makerId}, ${action}, ${size}, ${now})`);
  };

/**
 * A maker's money action: below the action's threshold, counting what the maker applied at once in the last 24
 * hours, it runs now ({status: 'applied', result}); otherwise it waits for a second operator ({status: 'pending',
 * approval}). Its subject is checked either way.
 */
export async function submit(deps: ApprovalDeps, makerId: string, input: Exclude<ApprovalRequestInput, { action: 'threshold_change' }>) {
  const { db, clock } = deps;
  const t = await target(deps, input, makerId);
  notOwnMoney(makerId, t.userId);
  // A price setting (issue 45) has no threshold: every one waits for a second admin.
  const limit = input.action === 'price_setting' ? 0n : (await readThresholds(db, clock)).now[input.action];
  if (t.size < limit) {
    try {
      const claim = directClaim(deps, makerId, input.action as ApprovalAction, t.size, limit);
      return { status: 'applied' as const, approval: null, result: await run(deps, makerId, input, { claim }) };
    } catch (err) {
      if (!(err instanceof OverDirectBudget)) throw err;
    }
  }
  return { status: 'pending' as const, approval: await insertRequest(deps, makerId, input.action, t), result: null };
}
