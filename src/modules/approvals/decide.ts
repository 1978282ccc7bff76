import { sql } from 'drizzle-orm';
import { one, type Tx } from '../../db/client.js';
import { DAY } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { inputOf, run } from './actions.js';
import type { ApprovalDeps } from './deps.js';
import { COLS, decidable, mustGet, notOwnMoney, view, type RequestAction, type RequestRow } from './requests.js';

/** An operator whose deciding role is younger than this approves nothing (issue 41: a fresh grant is not a checker). */
export const CHECKER_ROLE_AGE_MS = DAY;

/**
 * Issue 41: a checker holds a role that decides this action (admin alone for threshold changes) and has held it for
 * CHECKER_ROLE_AGE_MS: an account granted a role a moment ago is no second person.
 */
async function mayDecide({ clock, operators }: ApprovalDeps, checkerId: string, action: RequestAction) {
  const adminOnly = action === 'threshold_change' || action === 'price_setting';
  const since = await operators.mayDecideSince(checkerId, adminOnly ? [] : ['finance']);
  if (!since)
    throw new AppError(
      'FORBIDDEN',
      action === 'price_setting'
        ? 'Only an admin can decide a change of prices or price levels'
        : 'Only an admin can decide a change of the four-eyes thresholds',
    );
  if (clock.now().getTime() - since.getTime() < CHECKER_ROLE_AGE_MS)
    throw new AppError('FORBIDDEN', 'Your operator role is less than 24 hours old: a longer-standing operator must decide this request');
}

/**
 * A checker approves: the action runs in the transaction that claims the request (pending, unexpired, someone
 * else's), so nothing moves unless the claim holds and the claim holds only if the money moved.
 */
export async function approve(deps: ApprovalDeps, checkerId: string, id: string, reason: string | undefined) {
  const { db, clock } = deps;
  const r = await mustGet(db, id);
  decidable(clock, r, checkerId);
  notOwnMoney(checkerId, r.payload.userId);
  await mayDecide(deps, checkerId, r.action);
  let claimed = false;
  const claim = async (tx: Tx) => {
    const now = clock.now();
    const won = await one(
      tx,
      sql`UPDATE approval_requests SET status = 'approved', checker_id = ${checkerId}, decision_reason = ${reason ?? null}, decided_at = ${now}
          WHERE id = ${id} AND status = 'pending' AND expires_at > ${now} AND maker_id <> ${checkerId}::uuid RETURNING 1 AS x`,
    );
    if (!won) throw new AppError('CONFLICT', 'This request was decided or expired meanwhile');
    claimed = true;
  };
  const result = await run(deps, r.maker_id, inputOf(r.action, r.payload), { id, checkerId, claim });
  // The action found its subject already settled by someone else (a requery): the claim never ran, nothing moved.
  if (!claimed) throw new AppError('CONFLICT', 'The subject of this request changed meanwhile; nothing was done. Reject the request.');
  await db.execute(sql`UPDATE approval_requests SET result = ${JSON.stringify(result)}::jsonb WHERE id = ${id}`);
  return { approval: view(clock, await mustGet(db, id)) };
}

/** A checker rejects a pending request; nothing runs. */
export async function reject({ db, clock }: ApprovalDeps, checkerId: string, id: string, reason: string) {
  const r = await mustGet(db, id);
  decidable(clock, r, checkerId);
  const now = clock.now();
  const done = await one<RequestRow>(
    db,
    sql`UPDATE approval_requests SET status = 'rejected', checker_id = ${checkerId}, decision_reason = ${reason}, decided_at = ${now}
        WHERE id = ${id} AND status = 'pending' AND expires_at > ${now} AND maker_id <> ${checkerId}::uuid RETURNING ${COLS}`,
  );
  if (!done) throw new AppError('CONFLICT', 'This request was decided or expired meanwhile');
  return { approval: view(clock, done) };
}
