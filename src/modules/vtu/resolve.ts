import { AppError, notFound } from '../../kernel/errors.js';
import type { Db, Tx } from '../../db/client.js';
import type { Outcome } from '../../providers/vtu/types.js';
import { kindNamed } from './kinds/index.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';
import type { createVtuSettlement, OnSettled } from './settlement.js';
import { toTransaction } from './view.js';

type Settlement = ReturnType<typeof createVtuSettlement>;

/** An operator's resolution: the outcome, how it was confirmed, and for a partly delivered order what was not delivered. */
export interface Resolution {
  outcome: 'delivered' | 'failed';
  note: string;
  /** The quantity the provider did not deliver (a kind with partialRefund: a social order); refunded with the settlement. */
  remains?: number;
}

/** What an operator's resolution needs: the settlement's guarded transitions and a requery at the provider. */
export interface ResolveDeps {
  db: Db;
  /** A requery of a row at its provider (the kind's adapter's own, else the provider's). */
  requery: (row: VtuRow) => Promise<Outcome>;
  settleSuccess: Settlement['settleSuccess'];
  settleFailed: Settlement['settleFailed'];
  mustGet: (id: string) => Promise<VtuRow>;
}

/** Refuses a resolution that cannot apply to the row (VALIDATION_FAILED), before any approval or settlement. */
function checkResolution(row: VtuRow, r: Resolution) {
  if (r.remains === undefined) return;
  const issue = (message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'remains', message }] });
  if (r.outcome !== 'delivered') throw issue('remains applies to a delivered outcome only');
  if (!kindNamed(row.service).partialRefund) throw issue(`a ${kindNamed(row.service).label} is delivered whole or not at all`);
  if (r.remains > (row.quantity ?? 0)) throw issue(`remains must be at most the quantity ordered (${row.quantity ?? 0})`);
}

/** The delivery an operator confirms: the note, and for a kind with partialRefund what was not delivered. */
async function deliveredByOperator(requery: ResolveDeps['requery'], row: VtuRow, r: Resolution): Promise<Outcome> {
  const details = { note: `Confirmed by an operator: ${r.note}` };
  if (!kindNamed(row.service).partialRefund) return { status: 'delivered', details };
  if (r.remains !== undefined) return { status: 'delivered', details: { ...details, remains: r.remains } };
  // The provider's own progress when it can tell now (a partly completed order's remains); unreachable: the word alone.
  const out = await requery(row).catch(() => null);
  if (out?.status === 'delivered') return { status: 'delivered', details: { ...(out.details ?? {}), ...details } };
  return { status: 'delivered', details };
}

/** The purchase a resolution targets: it must exist and still be processing, and the resolution fit it. */
export async function resolutionTarget(db: Db, id: string, resolution?: Resolution) {
  const row = await repo.getTransaction(db, id);
  if (!row) throw notFound('VTU transaction');
  if (row.status !== 'processing') throw new AppError('CONFLICT', `This transaction is already ${row.status}`);
  if (resolution) checkResolution(row, resolution);
  return { subjectType: 'vtu_transaction', subjectId: row.id, userId: row.user_id, amount: BigInt(row.amount) };
}

/**
 * Settles a processing purchase by an operator's word. `opts.claim` (four-eyes: the approval's conditional claim)
 * runs inside the settling transaction, after the conditional status change and before the refund, so a refused
 * claim settles nothing; when another settlement got there first it is not called at all. A delivered resolution
 * of a kind with partialRefund refunds the undelivered part once, in the settling transaction: the operator's
 * `remains`, else what the provider's progress says now (a partly completed order), else nothing.
 */
export async function adminResolve(
  { db, requery, settleSuccess, settleFailed, mustGet }: ResolveDeps,
  actorId: string,
  id: string,
  resolution: Resolution,
  opts: { claim?: (tx: Tx) => Promise<void>; approvedBy?: string } = {},
) {
  const { outcome, note } = resolution;
  const row = await repo.getTransaction(db, id);
  if (!row) throw notFound('VTU transaction');
  if (row.status !== 'processing') throw new AppError('CONFLICT', `This transaction is already ${row.status}`);
  checkResolution(row, resolution);
  // The registry writes the call's audit row (http/admin-audit.ts); the claim is four-eyes' (approvals).
  const record: OnSettled = async (tx) => {
    await opts.claim?.(tx);
  };
  if (outcome === 'delivered') await settleSuccess(row, await deliveredByOperator(requery, row, resolution), record);
  else await settleFailed(row, `Resolved by an operator: ${note}`, 'operator', record);
  const after = await mustGet(id);
  if (after.status === 'processing') throw new AppError('CONFLICT', 'The transaction changed while resolving it; look again');
  return toTransaction(after);
}
