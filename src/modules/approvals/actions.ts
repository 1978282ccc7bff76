import type { Tx } from '../../db/client.js';
import { toNaira } from '../../kernel/money.js';
import { epinSettingOf, epinSettingPayload, type EpinPriceSetting } from '../epins/api.js';
import { priceSettingOf, priceSettingPayload, type PriceSetting } from '../vtu/api.js';
import type { ApprovalDeps } from './deps.js';
import { APPROVAL_ACTIONS, THRESHOLD_KEYS, writeThresholds, type Thresholds } from './thresholds.js';

/** A money action (or a weakening of four-eyes) an operator asks for. */
export type ApprovalRequestInput =
  | { action: 'wallet_adjustment'; userId: string; amount: bigint; reason: string }
  | { action: 'vtu_resolution'; transactionId: string; outcome: 'delivered' | 'failed'; note: string; remains?: number }
  | { action: 'settlement_correction'; settlementId: string; amount: bigint; reason: string }
  | { action: 'threshold_change'; thresholds: Partial<Thresholds>; reason: string }
  | { action: 'price_setting'; setting: PriceSetting | EpinPriceSetting; reason: string };

/** What a request is about: its subject, the customer whose money it moves (null: none), its size and its facts. */
export interface ActionTarget {
  subjectType: string;
  subjectId: string;
  userId: string | null;
  size: bigint;
  reason: string;
  payload: Record<string, string>;
}

/** How an action runs: as an approval (its id and checker) or at once, and the claim its transaction makes first. */
export interface RunOptions {
  id?: string;
  checkerId?: string;
  claim?: (tx: Tx) => Promise<void>;
}

// The actions four-eyes guards: finding what each is about (target), running each (run), and reading a stored one back
// (inputOf).

const abs = (n: bigint) => (n < 0n ? -n : n);

/** What a request is about and how big it is; throws when its subject is missing or no longer fits. */
export async function target(
  { payments, vtu, epins }: Pick<ApprovalDeps, 'payments' | 'vtu' | 'epins'>,
  input: ApprovalRequestInput,
  makerId: string,
): Promise<ActionTarget> {
  switch (input.action) {
    case 'wallet_adjustment': {
      const t = await payments.adjustmentTarget(input.userId);
      const payload = { userId: input.userId, amount: String(input.amount), reason: input.reason };
      return { ...t, userId: input.userId, size: abs(input.amount), reason: input.reason, payload };
    }
    case 'vtu_resolution': {
      const t = await vtu.resolutionTarget(input.transactionId, input);
      const payload = {
        transactionId: input.transactionId,
        userId: t.userId,
        outcome: input.outcome,
        note: input.note,
        ...(input.remains !== undefined ? { remains: String(input.remains) } : {}),
      };
      return { ...t, size: t.amount, reason: input.note, payload };
    }
    case 'settlement_correction': {
      const t = await payments.settlementTarget(input.settlementId, { amount: input.amount, reason: input.reason });
      const payload = { settlementId: input.settlementId, userId: t.userId, amount: String(input.amount), reason: input.reason };
      return { ...t, size: abs(input.amount), reason: input.reason, payload };
    }
    case 'threshold_change': {
      const payload: Record<string, string> = { reason: input.reason };
      for (const a of APPROVAL_ACTIONS) if (input.thresholds[a] !== undefined) payload[THRESHOLD_KEYS[a]] = String(input.thresholds[a]);
      return { subjectType: 'approval_settings', subjectId: makerId, userId: null, size: 0n, reason: input.reason, payload };
    }
    case 'price_setting': {
      // Issue 45: a level's price, a level, or a customer's level; a grant names a customer who must exist. A level's
      // e-PIN price is the epins module's (its table): asked of it, not of vtu.
      const s = input.setting;
      if (s.change === 'epin') {
        const t = await epins.adminPriceSettingTarget(s);
        return { ...t, size: 0n, reason: input.reason, payload: { ...epinSettingPayload(s), reason: input.reason } };
      }
      if (s.change === 'grant') await payments.adjustmentTarget(s.userId);
      const t = await vtu.adminPriceSettingTarget(s);
      return { ...t, size: 0n, reason: input.reason, payload: { ...priceSettingPayload(s), reason: input.reason } };
    }
  }
}

/** Runs an action (its postings mark the Idempotency-Key claim of the operator's request it runs in). */
export async function run(
  { db, clock, payments, vtu, epins }: Pick<ApprovalDeps, 'db' | 'clock' | 'payments' | 'vtu' | 'epins'>,
  makerId: string,
  input: ApprovalRequestInput,
  opts: RunOptions = {},
) {
  const actor = { id: makerId, approvedBy: opts.checkerId };
  switch (input.action) {
    case 'wallet_adjustment':
      return payments.applyAdjustment(
        actor,
        { userId: input.userId, amount: input.amount, reason: input.reason, reference: opts.id && `adj_${opts.id}` },
        opts.claim,
      );
    case 'settlement_correction':
      return payments.applySettlementCorrection(
        actor,
        { settlementId: input.settlementId, amount: input.amount, reason: input.reason, reference: opts.id && `stc_${opts.id}` },
        opts.claim,
      );
    case 'vtu_resolution': {
      const transaction = await vtu.adminResolve(makerId, input.transactionId, input, {
        claim: opts.claim,
        approvedBy: opts.checkerId,
      });
      return { transaction };
    }
    case 'threshold_change':
      return db.transaction(async (tx) => {
        await opts.claim?.(tx);
        await writeThresholds(tx, makerId, clock.now(), input.thresholds);
        return Object.fromEntries(Object.entries(input.thresholds).map(([a, v]) => [THRESHOLD_KEYS[a as keyof Thresholds], toNaira(v)]));
      });
    case 'price_setting':
      if (input.setting.change === 'epin') return epins.adminApplyPriceSetting(input.setting, opts.claim);
      return vtu.adminApplyPriceSetting(makerId, input.setting, opts.claim);
  }
}

/** A stored request's action, as it was asked for. */
export function inputOf(action: ApprovalRequestInput['action'], p: Record<string, string>): ApprovalRequestInput {
  switch (action) {
    case 'wallet_adjustment':
      return { action, userId: p.userId, amount: BigInt(p.amount), reason: p.reason };
    case 'settlement_correction':
      return { action, settlementId: p.settlementId, amount: BigInt(p.amount), reason: p.reason };
    case 'vtu_resolution':
      return {
        action,
        transactionId: p.transactionId,
        outcome: p.outcome as 'delivered' | 'failed',
        note: p.note,
        // Requests made before `remains` was stored as text kept it as a number.
        ...(p.remains !== undefined ? { remains: Number(p.remains) } : {}),
      };
    case 'threshold_change': {
      const thresholds: Partial<Thresholds> = {};
      for (const a of APPROVAL_ACTIONS) if (p[THRESHOLD_KEYS[a]] !== undefined) thresholds[a] = BigInt(p[THRESHOLD_KEYS[a]]);
      return { action, thresholds, reason: p.reason };
    }
    case 'price_setting':
      return { action, setting: p.change === 'epin' ? epinSettingOf(p) : priceSettingOf(p), reason: p.reason };
  }
}
