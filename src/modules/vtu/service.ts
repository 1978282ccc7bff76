import type { Config } from '../../config.js';

import type { Db } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';

import { AppError, notFound } from '../../kernel/errors.js';

import type { Ledger } from '../../ledger/ledger.js';

import { MINUTE, type Clock } from '../../kernel/clock.js';

import type { EventBus } from '../../platform/change.js';
import type { Work } from '../../platform/change.js';

import { prefixedId, uuid } from '../../kernel/ids.js';

import { faultPoint } from '../../lib/faults.js';

import type { Logger } from '../../lib/logger.js';

import { toKobo, toNaira } from '../../kernel/money.js';

import type { JobQueue } from '../../jobs/queue.js';

import {
  PROVIDER_IDS,
  type Outcome,
  type ProviderId,
  type PurchaseRequest,
  type VtuService as ServiceName,
  type VtuProvider,
} from '../../providers/vtu/types.js';

import type { WalletLimits } from '../wallet/api.js';

import { createCatalogue } from './catalogue.js';

import { createProviderFloat } from './float.js';

import { createMarkups } from './markups.js';

import { dataPlans } from './kinds/data/index.js';
import { INBOUND_KINDS, inboundRouting, kindNamed } from './kinds/index.js';
import type { KindContext, Purchaser, VtuCore } from './kinds/kind.js';
import { capital, purchaseEntries, requestIdFor } from './model.js';
import { createPricing } from './pricing.js';

import * as repo from './repository.js';
import type { VtuRow } from './repository.js';

import { createVtuSettlement } from './settlement.js';
import { createVtuAdmin } from './admin.js';
import { toTransaction } from './view.js';

// Purchases' shapes and helpers live in model.ts; importers keep using this module.
export * from './model.js';
export { toTransaction } from './view.js';

/**
 * VTU purchases (spec 1 rules 1-6, section 3; docs/design.md §7) for every service kind (kinds/, one folder each). The
 * order of a purchase: the kind's validation and the network prefix check (before any debit) -> PIN and Tier 1
 * (registry gates) -> the kind's price check -> ONE database statement that debits the wallet and records
 * `processing` -> just-in-time provider float -> the kind's adapter at the provider, with a stable request id ->
 * success, failed with refund (in the transaction that marks it failed), or still processing. A timeout or an unclear
 * answer is never a failure: reconciliation requeries the same provider with the same request id. Refunds and
 * successes are guarded by a conditional UPDATE ... WHERE status = 'processing' and a unique ledger reference, so each
 * happens at most once whoever gets there first.
 */
export interface VtuDeps {
  config: Config;
  db: Db;
  /** Catalogues and the caller's transaction lists read from the replica when there is one (src/db/replica.ts). */
  replica: ReadReplica;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  walletLimits: WalletLimits;
  events: EventBus;
  work: Work;
  jobs: JobQueue;
  /** The provider adapters, built by the composition root (providers/vtu). */
  providers: Record<ProviderId, VtuProvider>;
}

export function createVtuService(deps: VtuDeps) {
  const { config, db, clock, log, ledger, walletLimits, work } = deps;
  const cfg = config.vtu;
  const { providers } = deps;
  const catalogue = createCatalogue({ db, readDb: deps.replica.lagTolerant, clock, log });
  const markups = createMarkups({ db, clock });
  const { routing, route, priced, context, adapterAt, quotePurchase } = createPricing({
    cfg,
    catalogue,
    markups,
    providers,
    platform: { db, clock, work },
  });
  // The floats list the inbound kinds (airtime-to-cash) with the kinds: routed by VTU_ROUTING too, though modules of their own.
  const floatRouting = { ...routing, ...Object.fromEntries(INBOUND_KINDS.map((k) => [k.name, inboundRouting(k, cfg.routing)])) };
  const float = createProviderFloat({ db, clock, log, ledger, work, cfg, routing: floatRouting, providers });
  const { ensureFloat } = float;

  // ---------- provider requests ----------
  /** The request for a row at its current provider: the shared fields, then the kind's (null: not sold there). */
  async function requestFor(row: VtuRow): Promise<PurchaseRequest | null> {
    const base: PurchaseRequest = {
      requestId: row.request_id,
      service: row.service as ServiceName,
      recipient: row.recipient,
      wholesale: BigInt(row.wholesale),
      network: row.network ?? undefined,
      product: row.product ?? undefined,
      meterType: (row.meter_type as 'prepaid' | 'postpaid' | null) ?? undefined,
      quantity: row.quantity ?? undefined,
      phone: row.phone ?? undefined,
      profileId: row.profile_id ?? undefined,
      ...(row.inputs ? { inputs: row.inputs } : {}),
    };
    const kind = kindNamed(row.service);
    return kind.request ? kind.request(context(kind.name), row, base) : base;
  }

  /** Wholesale at the next provider for a fallback (the kind's price there), or null when it does not sell the same product. */
  async function wholesaleAt(row: VtuRow, provider: ProviderId): Promise<bigint | null> {
    const kind = kindNamed(row.service);
    try {
      return kind.wholesaleAt ? await kind.wholesaleAt(context(kind.name), row, provider) : BigInt(row.wholesale);
    } catch {
      return null;
    }
  }

  /** The provider's answer to a purchase, through the kind's adapter there (none: the provider does not sell it). */
  async function purchaseAt(row: VtuRow, provider: ProviderId, req: PurchaseRequest): Promise<Outcome> {
    const adapter = adapterAt(row.service, provider);
    if (!adapter) return { status: 'failed', message: `provider ${provider} does not sell ${row.service}` };
    return adapter.purchase(req);
  }

  /** A requery of a row, by the kind's adapter when it has its own, else the provider's (by our request id). */
  async function requery(row: VtuRow): Promise<Outcome> {
    const provider = row.provider as ProviderId;
    const own = adapterAt(row.service, provider)?.requery;
    return own ? own(row.request_id) : providers[provider].requery(row.request_id);
  }

  function nextProvider(row: VtuRow): ProviderId | null {
    const r = routing[row.service] ?? [];
    const i = r.indexOf(row.provider as ProviderId);
    const next = r.slice(i + 1).find((p) => !row.providers_tried.includes(p));
    return next ?? null;
  }

  const { firstCheckDelay, settleSuccess, settleFailed, reroute, keepPending, applyRequery } = createVtuSettlement({
    db,
    clock,
    log,
    work,
    cfg,
    wholesaleAt,
  });

  /** First attempt (and fallbacks) of a freshly debited purchase: the settled row, or null while it is pending. */
  async function attempt(initial: VtuRow): Promise<VtuRow | null> {
    let row = initial;
    for (let hop = 0; hop < PROVIDER_IDS.length; hop++) {
      const provider = row.provider as ProviderId;
      const req = await requestFor(row);
      let out: Outcome;
      if (!req) out = { status: 'failed', message: 'This product is not available at the provider' };
      else {
        await ensureFloat(provider, req.wholesale).catch((err) =>
          log.warn({ provider, err: (err as Error).message }, 'float check failed'),
        );
        out = await purchaseAt(row, provider, req);
        if (out.status === 'low_float') {
          await ensureFloat(provider, req.wholesale, true).catch((err) =>
            log.warn({ provider, err: (err as Error).message }, 'float top-up failed'),
          );
          out = await purchaseAt(row, provider, req);
        }
      }
      log.info({ transactionId: row.id, reference: row.reference, provider, outcome: out.status }, 'vtu provider answered');
      faultPoint('vtu.purchase.afterProvider');
      if (out.status === 'failed' || out.status === 'low_float') {
        // docs/design.md §7: fall back only on a definite failure.
        const next = nextProvider(row);
        if (next) {
          const moved = await reroute(row, next);
          if (moved) {
            row = moved;
            continue;
          }
        }
        return settleFailed(
          row,
          out.status === 'low_float' ? 'The provider is temporarily unable to sell this product' : out.message,
          out.status,
        );
      }
      if (out.status === 'delivered') return settleSuccess(row, out);
      await keepPending(row, out.status, 0);
      return null;
    }
    return null;
  }

  const mustGet = async (id: string) => (await repo.getTransaction(db, id))!;

  /**
   * The purchase path, shared by the HTTP operations and by scheduled purchases. The caller has checked the
   * PIN (HTTP gate, or at schedule time); Tier 1 is re-checked here. `channel`: where it is made (app by default;
   * the USSD menu and the WhatsApp assistant name theirs).
   */
  async function purchase(user: Purchaser, kind: string, input: object, channel: repo.PurchaseChannel = 'app') {
    if (user.kycTier < 1) throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 1 is required for purchases');
    const k = kindNamed(kind);
    const p = await k.prepare(context(k.name), input, user);
    const now = clock.now();
    const id = uuid();
    const reference = prefixedId('vtu', now.getTime());
    const row: repo.NewVtuRow = {
      id,
      reference,
      requestId: requestIdFor(now),
      userId: user.id,
      service: k.name,
      amount: p.retail,
      wholesale: p.wholesale,
      markup: p.markup,
      recipient: p.recipient,
      network: p.network,
      planId: p.planId,
      product: p.product,
      meterType: p.meterType,
      quantity: p.quantity,
      phone: p.phone,
      profileId: p.profileId,
      inputs: p.inputs,
      provider: p.provider,
      ported: p.ported,
      channel,
      now,
      // If this process dies before the provider answers, reconciliation picks the row up from here.
      nextCheckAt: new Date(now.getTime() + firstCheckDelay()),
    };
    // ONE autocommit statement: the posting locks the wallet, checks the daily limit and the balance on the locked
    // row, debits it and writes the purchase row with it; refused, it writes nothing.
    const change = work.change().post({
      reference,
      type: 'vtu_purchase',
      description: `${capital(k.label)} for ${p.recipient}`,
      entries: purchaseEntries(user.id, p.retail, p.provider, p.wholesale, p.markup),
      metadata: { transactionId: id },
      limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
    });
    await repo.recordPurchase(change, row).commit();
    faultPoint('vtu.purchase.afterDebit');
    let settled: repo.VtuRow | null = null;
    try {
      settled = await attempt(repo.newRowOf(row));
    } catch (err) {
      // The money is safe: the row stays processing and reconciliation settles it.
      log.error({ err, transactionId: id }, 'vtu purchase attempt failed after the debit');
    }
    return toTransaction(settled ?? (await mustGet(id)));
  }

  const core: VtuCore = {
    purchase: (user, kind, input) => purchase(user, kind, input),
    kind: (name) => context(name),
    ownRow: (userId, id) => repo.getOwnTransaction(deps.replica.forUser(userId), userId, id),
  };

  return {
    providers,
    markups,
    /** A kind's context (kinds/kind.ts): its routing, prices, cached catalogue and adapters. */
    kind: (name: string): KindContext => context(name),
    /** The VTU core's calls lent to the kinds' operations. */
    core,
    /** The retail data plans (schedules' data purchases choose from them). */
    dataPlans: (network?: string, planType?: string) => dataPlans(context('data'), network, planType),

    async quote(input: { service: string; provider?: ProviderId; wholesale: number }) {
      const provider = input.provider ?? route(input.service)[0];
      const p = await priced(input.service, provider, toKobo(input.wholesale));
      return { service: input.service, provider, wholesale: toNaira(p.wholesale), markup: toNaira(p.markup), retail: toNaira(p.retail) };
    },

    quotePurchase,

    purchase,

    async listMine(userId: string, f: { status?: string; service?: string; limit: number; offset: number }) {
      const list = await repo.listOwnTransactions(deps.replica.forUser(userId), userId, f);
      return { items: list.slice(0, f.limit).map(toTransaction), limit: f.limit, offset: f.offset, hasMore: list.length > f.limit };
    },
    async getMine(userId: string, id: string) {
      const row = await repo.getOwnTransaction(deps.replica.forUser(userId), userId, id);
      if (!row) throw notFound('VTU transaction');
      return toTransaction(row);
    },

    // ----- reconciliation -----
    /** Requeries every due processing transaction once; returns how many were checked. */
    async reconcileDue(max = 500): Promise<number> {
      let done = 0;
      while (done < max) {
        const now = clock.now();
        const batch = await repo.claimDue(db, now, new Date(now.getTime() + Math.max(MINUTE, 3 * cfg.timeoutMs)), 16);
        if (!batch.length) break;
        await Promise.all(
          batch.map(async (row) => {
            try {
              await applyRequery(row, await requery(row));
            } catch (err) {
              log.error({ err, transactionId: row.id }, 'vtu requery failed');
            }
          }),
        );
        done += batch.length;
      }
      return done;
    },

    ...createVtuAdmin({ db, clock, cfg, requery, markups, applyRequery, settleSuccess, settleFailed, mustGet }),
    adminListFloats: float.listFloats,
    adminFundFloat: float.fundFloat,
  };
}

export type VtuServiceApi = ReturnType<typeof createVtuService>;
