import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import type { ApprovalSort } from './inputs.js';
import { emailsOf } from '../identity/api.js';
import type { PaymentsService } from '../payments/api.js';
import type { VtuServiceApi } from '../vtu/api.js';
import type { OperatorsService } from '../operators/api.js';
import { createApprovalActions, type ActionTarget, type ApprovalRequestInput } from './actions.js';

export type { ApprovalRequestInput } from './actions.js';
import {
  APPROVAL_ACTIONS,
  THRESHOLD_KEYS,
  WEAKENING_DELAY_MS,
  readThresholds,
  scheduleThresholds,
  splitChange,
  writeThresholds,
  type ApprovalAction,
  type ThresholdKey,
  type Thresholds,
} from './thresholds.js';

export { APPROVAL_ACTIONS, DEFAULT_THRESHOLDS, THRESHOLD_KEYS, type ApprovalAction } from './thresholds.js';

/** The stored amount by its table name: the selected `amount` is text and would sort as text. */
const APPROVAL_ORDER: Record<ApprovalSort, SQL> = {
  newest: sql`created_at DESC, id DESC`,
  oldest: sql`created_at ASC, id ASC`,
  amount_desc: sql`approval_requests.amount DESC, created_at DESC, id DESC`,
  amount_asc: sql`approval_requests.amount ASC, created_at DESC, id DESC`,
};

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

/** An operator whose deciding role is younger than this approves nothing (issue 41: a fresh grant is not a checker). */
export const CHECKER_ROLE_AGE_MS = DAY;
/** The window over which one operator's directly applied actions add up (issue 41). */
export const DIRECT_WINDOW_MS = DAY;

type Payload = Record<string, string>;

type RequestAction = ApprovalRequestInput['action'];

/** A directly applied action that would take its maker past the threshold over the window: it waits instead. */
class OverDirectBudget extends Error {}

interface RequestRow {
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

const COLS =
  sql.raw(`id, action, status, maker_id::text AS maker_id, maker_reason, subject_type, subject_id, amount::text AS amount, payload,
  created_at, expires_at, checker_id::text AS checker_id, decision_reason, decided_at, result`);

/** Details keys whose stored kobo are shown in naira. */
const NAIRA_KEYS = new Set(['amount', ...Object.values(THRESHOLD_KEYS)]);

export type ApprovalService = ReturnType<typeof createApprovalService>;

export function createApprovalService(deps: {
  db: Db;
  clock: Clock;
  payments: PaymentsService;
  vtu: VtuServiceApi;
  operators: OperatorsService;
}) {
  const { db, clock, operators } = deps;
  const actions = createApprovalActions(deps);

  const statusOf = (r: RequestRow): RequestRow['status'] | 'expired' =>
    r.status === 'pending' && new Date(r.expires_at) <= clock.now() ? 'expired' : r.status;
  const view = (r: RequestRow) => ({
    id: r.id,
    action: r.action,
    status: statusOf(r),
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

  /**
   * Issue 44: who asked and for which customer, in words: each request's maker and customer (the money's owner, none
   * for a threshold change) with their e-mails, read in one statement for the page.
   */
  async function withPeople(list: ReturnType<typeof view>[]) {
    const customerOf = (a: ReturnType<typeof view>) => (typeof a.details.userId === 'string' ? a.details.userId : null);
    const emails = await emailsOf(db, [...list.map((a) => a.makerId), ...list.map(customerOf).filter((id) => id !== null)]);
    return list.map((a) => {
      const customerId = customerOf(a);
      return {
        ...a,
        makerEmail: emails.get(a.makerId) ?? null,
        customerId,
        customerEmail: customerId === null ? null : (emails.get(customerId) ?? null),
      };
    });
  }

  /** Issue 41: nobody moves money into or out of their own account, as maker or as checker. */
  function notOwnMoney(operatorId: string, customerId: string | null | undefined) {
    if (customerId && customerId === operatorId)
      throw new AppError('FORBIDDEN', 'An operator cannot move money into or out of their own account: another operator must do it');
  }

  /**
   * Issue 41: a checker holds a role that decides this action (admin alone for threshold changes) and has held it for
   * CHECKER_ROLE_AGE_MS: an account granted a role a moment ago is no second person.
   */
  async function mayDecide(checkerId: string, action: RequestAction) {
    const since = await operators.mayDecideSince(checkerId, action === 'threshold_change' ? [] : ['finance']);
    if (!since) throw new AppError('FORBIDDEN', 'Only an admin can decide a change of the four-eyes thresholds');
    if (clock.now().getTime() - since.getTime() < CHECKER_ROLE_AGE_MS)
      throw new AppError('FORBIDDEN', 'Your operator role is less than 24 hours old: a longer-standing operator must decide this request');
  }

  /**
   * The claim of an action applied at once, in the action's own transaction before any money moves: adds it to its
   * maker's total of the last DIRECT_WINDOW_MS, or refuses (OverDirectBudget) when that would reach the threshold.
   * Same-maker applications take turns on an advisory lock, so concurrent ones cannot both fit.
   */
  const directClaim = (makerId: string, action: ApprovalAction, size: bigint, limit: bigint) => async (tx: Tx) => {
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

  async function insertRequest(makerId: string, action: RequestAction, t: ActionTarget) {
    const now = clock.now();
    const r = await one<RequestRow>(
      db,
      sql`INSERT INTO approval_requests (id, action, status, maker_id, maker_reason, subject_type, subject_id, amount, payload, created_at, expires_at)
          VALUES (${prefixedId('apr', now.getTime())}, ${action}, 'pending', ${makerId}, ${t.reason}, ${t.subjectType}, ${t.subjectId},
                  ${t.size}, ${JSON.stringify(t.payload)}::jsonb, ${now}, ${new Date(now.getTime() + APPROVAL_TTL_MS)})
          RETURNING ${COLS}`,
    );
    return view(r!);
  }

  async function mustGet(id: string): Promise<RequestRow> {
    const r = await one<RequestRow>(db, sql`SELECT ${COLS} FROM approval_requests WHERE id = ${id}`);
    if (!r) throw notFound('Approval request');
    return r;
  }

  /** The checks before a decision, for a clear answer; the decision's conditional UPDATE is what guarantees them. */
  function decidable(r: RequestRow, checkerId: string) {
    if (r.maker_id === checkerId)
      throw new AppError('FORBIDDEN', 'The operator who asked for this cannot decide it: a different operator must');
    const s = statusOf(r);
    if (s !== 'pending') throw new AppError('CONFLICT', `This request is already ${s}`);
  }

  async function getSettings() {
    const { now, scheduled } = await readThresholds(db, clock);
    const values = Object.fromEntries(APPROVAL_ACTIONS.map((a) => [THRESHOLD_KEYS[a], toNaira(now[a])])) as Record<ThresholdKey, number>;
    return {
      ...values,
      scheduled: scheduled.map((s) => ({ setting: THRESHOLD_KEYS[s.action], value: toNaira(s.threshold), at: s.at.toISOString() })),
    };
  }

  return {
    /**
     * A maker's money action: below the action's threshold, counting what the maker applied at once in the last 24
     * hours, it runs now ({status: 'applied', result}); otherwise it waits for a second operator ({status: 'pending',
     * approval}). Its subject is checked either way.
     */
    async submit(makerId: string, input: Exclude<ApprovalRequestInput, { action: 'threshold_change' }>) {
      const t = await actions.target(input, makerId);
      notOwnMoney(makerId, t.userId);
      const limit = (await readThresholds(db, clock)).now[input.action];
      if (t.size < limit) {
        try {
          const claim = directClaim(makerId, input.action, t.size, limit);
          return { status: 'applied' as const, approval: null, result: await actions.run(makerId, input, { claim }) };
        } catch (err) {
          if (!(err instanceof OverDirectBudget)) throw err;
        }
      }
      return { status: 'pending' as const, approval: await insertRequest(makerId, input.action, t), result: null };
    },

    async list(input: { status?: 'pending' | 'approved' | 'rejected' | 'expired'; sort?: ApprovalSort; limit: number; offset: number }) {
      const now = clock.now();
      const status = input.status ?? null;
      const stored = status === 'expired' ? 'pending' : status;
      const list = await rows<RequestRow>(
        db,
        sql`SELECT ${COLS} FROM approval_requests
            WHERE (${stored}::text IS NULL OR status = ${stored})
              AND (${status}::text IS DISTINCT FROM 'pending' OR expires_at > ${now})
              AND (${status}::text IS DISTINCT FROM 'expired' OR expires_at <= ${now})
            ORDER BY ${APPROVAL_ORDER[input.sort ?? 'newest']} LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
      );
      return page(await withPeople(list.map(view)), input.limit, input.offset);
    },

    async get(id: string) {
      return { approval: view(await mustGet(id)) };
    },

    /**
     * A checker approves: the action runs in the transaction that claims the request (pending, unexpired, someone
     * else's), so nothing moves unless the claim holds and the claim holds only if the money moved.
     */
    async approve(checkerId: string, id: string, reason: string | undefined) {
      const r = await mustGet(id);
      decidable(r, checkerId);
      notOwnMoney(checkerId, r.payload.userId);
      await mayDecide(checkerId, r.action);
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
      const result = await actions.run(r.maker_id, actions.inputOf(r.action, r.payload), { id, checkerId, claim });
      // The action found its subject already settled by someone else (a requery): the claim never ran, nothing moved.
      if (!claimed) throw new AppError('CONFLICT', 'The subject of this request changed meanwhile; nothing was done. Reject the request.');
      await db.execute(sql`UPDATE approval_requests SET result = ${JSON.stringify(result)}::jsonb WHERE id = ${id}`);
      return { approval: view(await mustGet(id)) };
    },

    async reject(checkerId: string, id: string, reason: string) {
      const r = await mustGet(id);
      decidable(r, checkerId);
      const now = clock.now();
      const done = await one<RequestRow>(
        db,
        sql`UPDATE approval_requests SET status = 'rejected', checker_id = ${checkerId}, decision_reason = ${reason}, decided_at = ${now}
            WHERE id = ${id} AND status = 'pending' AND expires_at > ${now} AND maker_id <> ${checkerId}::uuid RETURNING ${COLS}`,
      );
      if (!done) throw new AppError('CONFLICT', 'This request was decided or expired meanwhile');
      return { approval: view(done) };
    },

    getSettings,

    /**
     * Issue 41: a lowered threshold (a stronger control) applies at once; a raised one weakens a control, so with two
     * or more admins it waits as a request another admin approves, and with one admin it takes effect after
     * WEAKENING_DELAY_MS (the registry announces the change to every admin by e-mail).
     */
    async updateSettings(operatorId: string, patch: Partial<Record<ThresholdKey, bigint>>, reason: string) {
      const at = clock.now();
      const values: Partial<Thresholds> = {};
      for (const a of APPROVAL_ACTIONS) if (patch[THRESHOLD_KEYS[a]] !== undefined) values[a] = patch[THRESHOLD_KEYS[a]];
      const current = (await readThresholds(db, clock)).now;
      const { weaker, stronger } = splitChange(current, values);
      await writeThresholds(db, operatorId, at, stronger);
      let change: { status: 'applied' | 'pending' | 'scheduled'; approvalId: string | null; effectiveAt: string | null } = {
        status: 'applied',
        approvalId: null,
        effectiveAt: null,
      };
      if (Object.keys(weaker).length) {
        if ((await operators.adminAddresses()).length >= 2) {
          const input = { action: 'threshold_change' as const, thresholds: weaker, reason };
          const approval = await insertRequest(operatorId, 'threshold_change', await actions.target(input, operatorId));
          change = { status: 'pending', approvalId: approval.id, effectiveAt: null };
        } else {
          const effectiveAt = new Date(at.getTime() + WEAKENING_DELAY_MS);
          await scheduleThresholds(db, operatorId, at, effectiveAt, current, weaker);
          change = { status: 'scheduled', approvalId: null, effectiveAt: effectiveAt.toISOString() };
        }
      }
      return { ...(await getSettings()), change };
    },
  };
}
