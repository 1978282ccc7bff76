import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { toNaira } from '../../kernel/money.js';
import type { ActionTarget, ApprovalRequestInput } from './actions.js';
import type { ApprovalDeps } from './deps.js';
import { THRESHOLD_KEYS } from './thresholds.js';

/**
 * Four-eyes (maker-checker, issue 30): a money action an operator asks for (the maker) runs at once when it is below
 * its action's threshold, and otherwise waits as an approval request until a different operator (the checker)
 * approves it, when it runs inside the approving transaction, or rejects it. A pending request expires
 * APPROVAL_TTL_MS after it was made (by the injected clock). The approving transaction claims the request with a
 * conditional UPDATE on status 'pending' before any money moves, so of any number of concurrent approvals one
 * moves the money and the others answer CONFLICT; each approved action's ledger reference is derived from the
 * request id as a second guard.
 */
export const APPROVAL_TTL_MS = DAY;

type Payload = Record<string, string>;

export type RequestAction = ApprovalRequestInput['action'];

export interface RequestRow {
  id: string;
  action: RequestAction;
  status: 'pending' | 'approved' | 'rejected';
  maker_id: string;
  maker_reason: string;
  subject_type: string;
  subject_id: string;
  amount: string;
  payload: Payload;
  created_at: Date;
  expires_at: Date;
  checker_id: string | null;
  decision_reason: string | null;
  decided_at: Date | null;
  result: Record<string, unknown> | null;
}

export const COLS =
  sql.raw(`id, action, status, maker_id::text AS maker_id, maker_reason, subject_type, subject_id, amount::text AS amount, payload,
  created_at, expires_at, checker_id::text AS checker_id, decision_reason, decided_at, result`);

/** Details keys whose stored kobo are shown in naira. */
const NAIRA_KEYS = new Set(['amount', ...Object.values(THRESHOLD_KEYS)]);

const statusOf = (clock: Clock, r: RequestRow): RequestRow['status'] | 'expired' =>
  r.status === 'pending' && new Date(r.expires_at) <= clock.now() ? 'expired' : r.status;

/** A request as operators read it (amounts in naira, an unexpired status). */
export const view = (clock: Clock, r: RequestRow) => ({
  id: r.id,
  action: r.action,
  status: statusOf(clock, r),
  makerId: r.maker_id,
  reason: r.maker_reason,
  subjectType: r.subject_type,
  subjectId: r.subject_id,
  amount: toNaira(r.amount),
  details: Object.fromEntries(
    Object.entries(r.payload).map(([k, v]) => [k, NAIRA_KEYS.has(k) && /^-?\d+$/.test(String(v)) ? toNaira(v) : v]),
  ) as Record<string, string | number>,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  checkerId: r.checker_id,
  decisionReason: r.decision_reason,
  decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
  result: r.result,
});

/** Issue 41: nobody moves money into or out of their own account, as maker or as checker. */
export function notOwnMoney(operatorId: string, customerId: string | null | undefined) {
  if (customerId && customerId === operatorId)
    throw new AppError('FORBIDDEN', 'An operator cannot move money into or out of their own account: another operator must do it');
}

/** Stores a pending request that expires APPROVAL_TTL_MS from now. */
export async function insertRequest(
  { db, clock }: Pick<ApprovalDeps, 'db' | 'clock'>,
  makerId: string,
  action: RequestAction,
  t: ActionTarget,
) {
  const now = clock.now();
  const r = await one<RequestRow>(
    db,
    sql`INSERT INTO approval_requests (id, action, status, maker_id, maker_reason, subject_type, subject_id, amount, payload, created_at, expires_at)
        VALUES (${prefixedId('apr', now.getTime())}, ${action}, 'pending', ${makerId}, ${t.reason}, ${t.subjectType}, ${t.subjectId},
                ${t.size}, ${JSON.stringify(t.payload)}::jsonb, ${now}, ${new Date(now.getTime() + APPROVAL_TTL_MS)})
        RETURNING ${COLS}`,
  );
  return view(clock, r!);
}

/** The stored request, or NOT_FOUND. */
export async function mustGet(db: ApprovalDeps['db'], id: string): Promise<RequestRow> {
  const r = await one<RequestRow>(db, sql`SELECT ${COLS} FROM approval_requests WHERE id = ${id}`);
  if (!r) throw notFound('Approval request');
  return r;
}

/** The checks before a decision, for a clear answer; the decision's conditional UPDATE is what guarantees them. */
export function decidable(clock: Clock, r: RequestRow, checkerId: string) {
  if (r.maker_id === checkerId)
    throw new AppError('FORBIDDEN', 'The operator who asked for this cannot decide it: a different operator must');
  const s = statusOf(clock, r);
  if (s !== 'pending') throw new AppError('CONFLICT', `This request is already ${s}`);
}
