import { sql } from 'drizzle-orm';

import type { Config } from '../../config.js';

import type { Db, Tx } from '../../db/client.js';

import { notFound } from '../../kernel/errors.js';

import { type Clock } from '../../kernel/clock.js';
import { toKobo } from '../../kernel/money.js';
import type { Outcome, ProviderId } from '../../providers/vtu/types.js';
import { createMarkups } from './markups.js';

import { toMarkupOut } from './model.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';

import { type createVtuSettlement } from './settlement.js';
import { adminResolve, resolutionTarget, type Resolution } from './resolve.js';
import { toTransaction } from './view.js';

/**
 * VTU purchases (spec 1 rules 1-6, section 3; docs/design.md §7). The order of a purchase: validation and the network
 * prefix check (before any debit) -> PIN and Tier 1 (registry gates) -> price check -> ONE database transaction
 * that debits the wallet and records `processing` -> just-in-time provider float -> provider call with a stable
 * request id -> success, failed with refund (in the transaction that marks it failed), or still processing.
 * A timeout or an unclear answer is never a failure: reconciliation requeries the same provider with the same
 * request id. Refunds and successes are guarded by a conditional UPDATE ... WHERE status = 'processing' and a
 * unique ledger reference, so each happens at most once whoever gets there first.
 */
type Settlement = ReturnType<typeof createVtuSettlement>;

/** What operators do with purchases and prices: requery, resolve by hand, list the stuck ones, set markups. */
export function createVtuAdmin(deps: {
  db: Db;
  clock: Clock;
  cfg: Config['vtu'];
  /** A requery of a row at its provider (the kind's adapter's own, else the provider's). */
  requery: (row: VtuRow) => Promise<Outcome>;
  markups: ReturnType<typeof createMarkups>;
  applyRequery: Settlement['applyRequery'];
  settleSuccess: Settlement['settleSuccess'];
  settleFailed: Settlement['settleFailed'];
  mustGet: (id: string) => Promise<VtuRow>;
}) {
  const { db, clock, cfg, requery, markups, applyRequery, settleSuccess, settleFailed, mustGet } = deps;
  return {
    async adminRequery(id: string) {
      const row = await repo.getTransaction(db, id);
      if (!row) throw notFound('VTU transaction');
      if (row.status === 'processing') {
        await db.execute(
          sql`UPDATE vtu_transactions SET requery_count = requery_count + 1, last_checked_at = ${clock.now()} WHERE id = ${id}`,
        );
        const out = await requery(row);
        await applyRequery({ ...row, requery_count: row.requery_count + 1 }, out);
        return { transaction: toTransaction(await mustGet(id)), providerStatus: out.status };
      }
      return { transaction: toTransaction(row), providerStatus: row.last_provider_status ?? row.status };
    },
    /**
     * An operator settles a processing purchase after confirming the outcome with the provider out of band
     * (e.g. a provider that cannot be reached). Same guarded transitions: a failure refunds exactly once.
     */
    /** One transaction as operators see it. */
    async adminGetTransaction(id: string) {
      return toTransaction(await mustGet(id));
    },
    /** The purchase a resolution targets: it must exist and still be processing, and the resolution fit it. */
    resolutionTarget: (id: string, resolution?: Resolution) => resolutionTarget(db, id, resolution),
    /** Settles a processing purchase by an operator's word (resolve.ts). */
    adminResolve: (
      actorId: string,
      id: string,
      resolution: Resolution,
      opts: { claim?: (tx: Tx) => Promise<void>; approvedBy?: string } = {},
    ) => adminResolve({ db, requery, settleSuccess, settleFailed, mustGet }, actorId, id, resolution, opts),
    async adminListStuck(limit: number, offset: number) {
      const list = await repo.listStuck(db, new Date(clock.now().getTime() - cfg.stuckAfterMs), limit, offset);
      return {
        items: list.slice(0, limit).map((r) => ({
          ...toTransaction(r),
          userId: r.user_id,
          requestId: r.request_id,
          requeryCount: r.requery_count,
          lastProviderStatus: r.last_provider_status,
          lastCheckedAt: r.last_checked_at ? new Date(r.last_checked_at).toISOString() : null,
        })),
        limit,
        offset,
        hasMore: list.length > limit,
      };
    },
    async adminSetMarkup(actorId: string, input: { service: string; provider?: ProviderId; kind: 'flat' | 'percent'; value: number }) {
      const value = input.kind === 'flat' ? toKobo(input.value) : BigInt(Math.round(input.value * 100));
      const m = await markups.set({ service: input.service, provider: input.provider ?? null, kind: input.kind, value, actorId });
      return toMarkupOut(m);
    },
    async adminListMarkups() {
      return (await markups.list()).map(toMarkupOut);
    },
  };
}
