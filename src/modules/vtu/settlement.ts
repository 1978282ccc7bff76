import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import type { Entry } from '../../ledger/ledger.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { Change, Work } from '../../platform/change.js';
import type { NotificationInput } from '../../kernel/notification.js';
import { faultPoint } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { Outcome, ProviderId } from '../../providers/vtu/types.js';
import { kindNamed } from './kinds/index.js';
import { capital, floatAccount, purchaseEntries } from './model.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';

export type OnSettled = (tx: Tx, done: VtuRow) => Promise<void>;

/**
 * Settling purchases (docs/design.md §7): success, failure with its refund in the same transaction, a fallback to the
 * next provider, or still pending with the next check backed off. Each is guarded by a conditional UPDATE on
 * status 'processing' and a unique ledger reference, so it happens at most once whoever gets there first.
 */
export function createVtuSettlement(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  work: Work;
  cfg: Config['vtu'];
  /** Wholesale at another provider for a fallback, or null when it does not sell the same product. */
  wholesaleAt: (row: VtuRow, provider: ProviderId) => Promise<bigint | null>;
}) {
  const { db, clock, log, work, cfg, wholesaleAt } = deps;
  const firstCheckDelay = () => Math.max(cfg.reconcileEveryMs, 2 * cfg.timeoutMs);
  const backoff = (requeries: number) => Math.min(cfg.reconcileEveryMs * 2 ** Math.max(0, requeries - 1), 10 * MINUTE);

  /**
   * Returns the settled row, or null when another settlement got there first. The settlement, the buyer's
   * notification and the 'vtu.succeeded' subscribers' writes are ONE statement (it was a transaction of six round
   * trips); with onSettled (an operator's record) that statement and the record share a transaction.
   */
  async function settleSuccess(row: VtuRow, out: Outcome, onSettled?: OnSettled): Promise<VtuRow | null> {
    const kind = kindNamed(row.service);
    const lines = kind.receiptLines?.(row, out) ?? [];
    const settling = {
      details: { ...(out.details ?? {}), ...(lines.length ? { receiptLines: lines } : {}) },
      now: clock.now(),
      providerStatus: 'delivered',
    };
    // A partly delivered purchase (kinds' partialRefund): the undelivered part goes back with the settlement.
    const part = kind.partialRefund?.(row, out) ?? null;
    const refund = part && part.wholesale + part.markup > 0n ? part : null;
    // The notice and the event's fields are the row's as created: a settlement changes none of them.
    const settle = (change: Change) =>
      repo.settle(
        change.notify(deliveredNotice(row, out)).emit('vtu.succeeded', {
          userId: row.user_id,
          transactionId: row.id,
          amount: BigInt(row.amount),
          service: row.service,
        }),
        row.id,
        row.provider,
        'success',
        settling,
      );
    const done =
      onSettled || refund
        ? await db.transaction(async (tx) => {
            const settled = await settle(work.change(tx));
            if (settled) {
              await onSettled?.(tx, settled);
              if (refund) await refundPart(tx, settled, refund);
            }
            return settled;
          })
        : await settle(work.change());
    if (!done) return null;
    faultPoint('vtu.settle.afterCommit');
    return done;
  }

  /** The buyer's notice of a delivered purchase, with the facts a client words it from in the reader's language. */
  function deliveredNotice(row: VtuRow, out: Outcome): NotificationInput {
    const kind = kindNamed(row.service);
    const note = kind.deliveredNote?.(row, out);
    return {
      userId: row.user_id,
      kind: 'purchase_delivered',
      title: `${capital(kind.label)} delivered`,
      body: `Your ${formatNaira(BigInt(row.amount))} ${kind.label} for ${row.recipient} was delivered.${out.details?.token ? ` Token: ${out.details.token}` : ''}${note ? ` ${note}` : ''}`,
      data: {
        transactionId: row.id,
        reference: row.reference,
        service: row.service,
        amount: toNaira(row.amount),
        recipient: row.recipient,
        ...(out.details?.token ? { token: out.details.token } : {}),
        ...(out.details?.units ? { units: out.details.units } : {}),
      },
    };
  }

  /** The undelivered part of a delivered purchase back to the wallet, from the float and revenue; once per purchase. */
  async function refundPart(tx: Tx, done: VtuRow, part: { wholesale: bigint; markup: bigint }) {
    const amount = part.wholesale + part.markup;
    await work
      .change(tx)
      .post({
        reference: `vtu_partial_refund_${done.reference}`,
        type: 'vtu_refund',
        description: `Refund: the undelivered part of ${kindNamed(done.service).label} for ${done.recipient}`,
        entries: purchaseEntries(done.user_id, amount, done.provider, part.wholesale, part.markup).map((e) => ({
          ...e,
          amount: -e.amount,
        })),
        metadata: { transactionId: done.id },
      })
      .commit();
  }

  /** Returns the settled row, or null when another settlement got there first. */
  async function settleFailed(
    row: VtuRow,
    reason: string | undefined,
    providerStatus: string,
    onSettled?: OnSettled,
  ): Promise<VtuRow | null> {
    return db.transaction(async (tx) => {
      const done = await repo.settle(work.change(tx), row.id, row.provider, 'failed', {
        failureReason: reason ?? 'The provider could not complete this purchase',
        now: clock.now(),
        providerStatus,
      });
      if (!done) return null;
      await onSettled?.(tx, done);
      // Refund in the same transaction that marks it failed; the reference makes a second refund impossible.
      const label = kindNamed(done.service).label;
      await work
        .change(tx)
        .post({
          reference: `vtu_refund_${done.reference}`,
          type: 'vtu_refund',
          description: `Refund: ${label} for ${done.recipient} failed`,
          entries: purchaseEntries(done.user_id, BigInt(done.amount), done.provider, BigInt(done.wholesale), BigInt(done.markup)).map(
            (e) => ({ ...e, amount: -e.amount }),
          ),
          metadata: { transactionId: done.id },
        })
        .notify({
          userId: done.user_id,
          kind: 'purchase_refunded',
          title: 'Purchase failed: refunded',
          body: `Your ${formatNaira(BigInt(done.amount))} ${label} for ${done.recipient} failed; ${formatNaira(BigInt(done.amount))} is back in your wallet.`,
          data: {
            transactionId: done.id,
            reference: done.reference,
            service: done.service,
            amount: toNaira(done.amount),
            recipient: done.recipient,
          },
        })
        .commit();
      return done;
    });
  }

  async function reroute(row: VtuRow, to: ProviderId): Promise<VtuRow | null> {
    const w = await wholesaleAt(row, to);
    if (w === null) return null;
    const now = clock.now();
    return db.transaction(async (tx) => {
      const moved = await repo.reroute(tx, row.id, row.provider, to, w, now, new Date(now.getTime() + firstCheckDelay()));
      if (!moved) return null;
      const from = BigInt(row.wholesale);
      const entries: Entry[] = [
        { account: floatAccount(row.provider), amount: -from },
        { account: floatAccount(to), amount: w },
      ];
      if (from !== w) entries.push({ account: { system: 'revenue' }, amount: from - w });
      await work
        .change(tx)
        .post({
          reference: `vtu_reroute_${row.reference}_${to}`,
          type: 'vtu_reroute',
          description: `Fallback ${row.provider.toUpperCase()} -> ${to.toUpperCase()}`,
          entries,
          metadata: { transactionId: row.id },
        })
        .commit();
      return moved;
    });
  }

  async function keepPending(row: VtuRow, providerStatus: string, requeries: number) {
    const now = clock.now();
    const stuck = now.getTime() - new Date(row.created_at).getTime() >= cfg.stuckAfterMs;
    if (stuck && !row.stuck_at)
      log.warn({ transactionId: row.id, reference: row.reference, provider: row.provider }, 'vtu transaction needs an operator');
    await repo.markPending(db, row.id, row.provider, {
      nextCheckAt: new Date(now.getTime() + (requeries === 0 ? firstCheckDelay() : backoff(requeries))),
      providerStatus,
      now,
      stuck,
    });
  }

  /** Applies a requery answer. A definite failure found by requery refunds; it does not fall back. */
  async function applyRequery(row: VtuRow, out: Outcome) {
    switch (out.status) {
      case 'delivered':
        return settleSuccess(row, out);
      case 'failed':
        return settleFailed(row, out.message, 'failed');
      case 'not_found': {
        // The provider has no record: trusted only after a grace period, so a request still in flight is not refunded.
        const age = clock.now().getTime() - new Date(row.sent_at).getTime();
        if (age >= cfg.notFoundGraceMs) return settleFailed(row, 'The provider has no record of this purchase', 'not_found');
        return keepPending(row, 'not_found', row.requery_count);
      }
      default:
        return keepPending(row, out.status, row.requery_count);
    }
  }

  return { firstCheckDelay, settleSuccess, settleFailed, reroute, keepPending, applyRequery };
}
