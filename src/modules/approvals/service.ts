import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import type { ApprovalSort } from './inputs.js';
import type { RequestClaim } from '../../ledger/ledger.js';
import type { PaymentsService } from '../payments/api.js';
import type { VtuServiceApi } from '../vtu/api.js';

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

export const APPROVAL_ACTIONS = ['wallet_adjustment', 'vtu_resolution', 'settlement_correction'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** Settings keys on the wire, by action. */
export const THRESHOLD_KEYS = {
  wallet_adjustment: 'walletAdjustment',
  vtu_resolution: 'vtuResolution',
  settlement_correction: 'settlementCorrection',
} as const satisfies Record<ApprovalAction, string>;
type ThresholdKey = (typeof THRESHOLD_KEYS)[ApprovalAction];

/** Defaults (kobo): adjustments under ₦1,000 by one operator take effect at once; every resolution and correction waits. */
export const DEFAULT_THRESHOLDS: Record<ApprovalAction, bigint> = {
  wallet_adjustment: 100_000n,
  vtu_resolution: 0n,
  settlement_correction: 0n,
};

export type ApprovalRequestInput =
  | { action: 'wallet_adjustment'; userId: string; amount: bigint; reason: string }
  | { action: 'vtu_resolution'; transactionId: string; outcome: 'delivered' | 'failed'; note: string; remains?: number }
  | { action: 'settlement_correction'; settlementId: string; amount: bigint; reason: string };

type Payload = Record<string, string>;

interface RequestRow {
  id: string;
  action: ApprovalAction;
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

export type ApprovalService = ReturnType<typeof createApprovalService>;

export function createApprovalService(deps: { db: Db; clock: Clock; payments: PaymentsService; vtu: VtuServiceApi }) {
  const { db, clock, payments, vtu } = deps;

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
    details: Object.fromEntries(Object.entries(r.payload).map(([k, v]) => [k, k === 'amount' ? toNaira(v) : v])) as Record<
      string,
      string | number
    >,
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    checkerId: r.checker_id,
    decisionReason: r.decision_reason,
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    result: r.result,
  });

  async function thresholds(): Promise<Record<ApprovalAction, bigint>> {
    const list = await rows<{ action: string; threshold: string }>(
      db,
      sql`SELECT action, threshold::text AS threshold FROM approval_settings`,
    );
    const out = { ...DEFAULT_THRESHOLDS };
    for (const r of list)
      if ((APPROVAL_ACTIONS as readonly string[]).includes(r.action)) out[r.action as ApprovalAction] = BigInt(r.threshold);
    return out;
  }

  /** What a request is about and how big it is; throws when its subject is missing or no longer fits. */
  async function target(input: ApprovalRequestInput) {
    switch (input.action) {
      case 'wallet_adjustment': {
        const t = await payments.adjustmentTarget(input.userId);
        const payload = { userId: input.userId, amount: String(input.amount), reason: input.reason };
        return { ...t, size: input.amount < 0n ? -input.amount : input.amount, reason: input.reason, payload };
      }
      case 'vtu_resolution': {
        const t = await vtu.resolutionTarget(input.transactionId, input);
        const payload = {
          transactionId: input.transactionId,
          outcome: input.outcome,
          note: input.note,
          ...(input.remains !== undefined ? { remains: input.remains } : {}),
        };
        return { ...t, size: t.amount, reason: input.note, payload };
      }
      case 'settlement_correction': {
        const t = await payments.settlementTarget(input.settlementId);
        const payload = { settlementId: input.settlementId, userId: t.userId, amount: String(input.amount), reason: input.reason };
        return { ...t, size: input.amount < 0n ? -input.amount : input.amount, reason: input.reason, payload };
      }
    }
  }

  /**
   * Runs an action; `requestClaim`: the Idempotency-Key claim of the operator's request it runs in (the maker's or
   * the checker's), marked by its posting; `approval` (its request id, its checker and the claim) when a second
   * operator approved it.
   */
  async function run(
    makerId: string,
    input: ApprovalRequestInput,
    requestClaim: RequestClaim | null,
    approval?: { id: string; checkerId: string; claim: (tx: Tx) => Promise<void> },
  ): Promise<Record<string, unknown>> {
    const actor = { id: makerId, approvedBy: approval?.checkerId };
    switch (input.action) {
      case 'wallet_adjustment':
        return payments.applyAdjustment(
          actor,
          { userId: input.userId, amount: input.amount, reason: input.reason, reference: approval && `adj_${approval.id}` },
          requestClaim,
          approval?.claim,
        );
      case 'settlement_correction':
        return payments.applySettlementCorrection(
          actor,
          { settlementId: input.settlementId, amount: input.amount, reason: input.reason, reference: approval && `stc_${approval.id}` },
          requestClaim,
          approval?.claim,
        );
      case 'vtu_resolution': {
        const transaction = await vtu.adminResolve(makerId, input.transactionId, input, requestClaim, {
          claim: approval?.claim,
          approvedBy: approval?.checkerId,
        });
        return { transaction };
      }
    }
  }

  const inputOf = (r: RequestRow): ApprovalRequestInput => {
    const p = r.payload;
    switch (r.action) {
      case 'wallet_adjustment':
        return { action: r.action, userId: p.userId, amount: BigInt(p.amount), reason: p.reason };
      case 'settlement_correction':
        return { action: r.action, settlementId: p.settlementId, amount: BigInt(p.amount), reason: p.reason };
      case 'vtu_resolution':
        return {
          action: r.action,
          transactionId: p.transactionId,
          outcome: p.outcome as 'delivered' | 'failed',
          note: p.note,
          ...(typeof p.remains === 'number' ? { remains: p.remains } : {}),
        };
    }
  };

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
    const t = await thresholds();
    return Object.fromEntries(APPROVAL_ACTIONS.map((a) => [THRESHOLD_KEYS[a], toNaira(t[a])])) as Record<ThresholdKey, number>;
  }

  return {
    /**
     * A maker's money action: below the action's threshold it runs now ({status: 'applied', result}); otherwise it
     * waits for a second operator ({status: 'pending', approval}). Its subject is checked either way.
     */
    async submit(makerId: string, input: ApprovalRequestInput, requestClaim: RequestClaim | null) {
      const t = await target(input);
      const limits = await thresholds();
      if (t.size < limits[input.action])
        return { status: 'applied' as const, approval: null, result: await run(makerId, input, requestClaim) };
      const now = clock.now();
      const r = await one<RequestRow>(
        db,
        sql`INSERT INTO approval_requests (id, action, status, maker_id, maker_reason, subject_type, subject_id, amount, payload, created_at, expires_at)
            VALUES (${prefixedId('apr', now.getTime())}, ${input.action}, 'pending', ${makerId}, ${t.reason}, ${t.subjectType}, ${t.subjectId},
                    ${t.size}, ${JSON.stringify(t.payload)}::jsonb, ${now}, ${new Date(now.getTime() + APPROVAL_TTL_MS)})
            RETURNING ${COLS}`,
      );
      return { status: 'pending' as const, approval: view(r!), result: null };
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
      return page(list.map(view), input.limit, input.offset);
    },

    async get(id: string) {
      return { approval: view(await mustGet(id)) };
    },

    /**
     * A checker approves: the action runs in the transaction that claims the request (pending, unexpired, someone
     * else's), so nothing moves unless the claim holds and the claim holds only if the money moved.
     */
    async approve(checkerId: string, id: string, reason: string | undefined, requestClaim: RequestClaim | null) {
      const r = await mustGet(id);
      decidable(r, checkerId);
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
      const result = await run(r.maker_id, inputOf(r), requestClaim, { id, checkerId, claim });
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

    async updateSettings(operatorId: string, patch: Partial<Record<ThresholdKey, bigint>>) {
      const now = clock.now();
      await db.transaction(async (tx) => {
        for (const a of APPROVAL_ACTIONS) {
          const v = patch[THRESHOLD_KEYS[a]];
          if (v === undefined) continue;
          await tx.execute(sql`INSERT INTO approval_settings (action, threshold, updated_by, updated_at) VALUES (${a}, ${v}, ${operatorId}, ${now})
                               ON CONFLICT (action) DO UPDATE SET threshold = EXCLUDED.threshold, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`);
        }
      });
      return getSettings();
    },
  };
}
