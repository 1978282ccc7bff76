import type { Config } from '../../config.js';

import type { Db } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';

import { AppError, notFound } from '../../kernel/errors.js';

import type { Ledger } from '../../ledger/ledger.js';

import { MINUTE, type Clock } from '../../kernel/clock.js';

import type { EventBus } from '../../lib/events.js';

import { prefixedId, uuid } from '../../kernel/ids.js';

import { faultPoint } from '../../lib/faults.js';

import type { Logger } from '../../lib/logger.js';

import { toKobo, toNaira } from '../../kernel/money.js';

import { NETWORKS, type Network } from '../../kernel/phone.js';

import type { JobQueue } from '../../jobs/queue.js';

import {
  PROVIDER_IDS,
  ProviderError,
  type Outcome,
  type ProviderId,
  type PurchaseRequest,
  type VtuService as ServiceName,
  type VtuProvider,
} from '../../providers/vtu/types.js';

import type { Notifier } from '../notifications/api.js';

import type { WalletLimits } from '../wallet/api.js';

import { createCatalogue } from './catalogue.js';

import { createProviderFloat } from './float.js';

import { createMarkups } from './markups.js';

import {
  capital,
  NETWORK_NAMES,
  purchaseEntries,
  requestIdFor,
  SERVICE_LABEL,
  toTransaction,
  type PurchaseInputs,
  type PurchaseKind,
  type Purchaser,
} from './model.js';
import { createPricing } from './pricing.js';

import * as repo from './repository.js';
import type { VtuRow } from './repository.js';

import { createVtuSettlement } from './settlement.js';
import { createVtuAdmin } from './admin.js';

// Purchases' shapes and helpers live in model.ts; importers keep using this module.
export * from './model.js';

/**
 * VTU purchases (spec 1 rules 1-6, section 3; docs/design.md §7). The order of a purchase: validation and the network
 * prefix check (before any debit) -> PIN and Tier 1 (registry gates) -> price check -> ONE database transaction
 * that debits the wallet and records `processing` -> just-in-time provider float -> provider call with a stable
 * request id -> success, failed with refund (in the transaction that marks it failed), or still processing.
 * A timeout or an unclear answer is never a failure: reconciliation requeries the same provider with the same
 * request id. Refunds and successes are guarded by a conditional UPDATE ... WHERE status = 'processing' and a
 * unique ledger reference, so each happens at most once whoever gets there first.
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
  notifier: Notifier;
  events: EventBus;
  jobs: JobQueue;
  /** The provider adapters, built by the composition root (providers/vtu). */
  providers: Record<ProviderId, VtuProvider>;
}

export function createVtuService(deps: VtuDeps) {
  const { config, db, clock, log, ledger, walletLimits, notifier, events } = deps;
  const cfg = config.vtu;
  const { providers } = deps;
  const catalogue = createCatalogue({ db, readDb: deps.replica.lagTolerant, clock, log, providers });
  const markups = createMarkups({ db, clock });
  const { route, priced, dataPlansOf, findDataPlan, findCode, retailList, dataPlans, prepare, quotePurchase } = createPricing({
    cfg,
    catalogue,
    markups,
  });
  const float = createProviderFloat({ db, clock, log, ledger, cfg, providers });
  const { ensureFloat } = float;

  // ---------- provider requests ----------
  async function requestFor(row: VtuRow): Promise<PurchaseRequest | null> {
    const provider = row.provider as ProviderId;
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
    };
    if (row.service === 'data') {
      const plan = await findDataPlan(provider, row.network!, row.plan_id!).catch(() => undefined);
      return plan ? { ...base, variation: plan.code } : null;
    }
    if (row.service === 'cable') return { ...base, variation: row.plan_id ?? undefined };
    return base;
  }

  /** Wholesale at the next provider for a fallback, or null when it does not sell the same product. */
  async function wholesaleAt(row: VtuRow, provider: ProviderId): Promise<bigint | null> {
    try {
      if (row.service === 'data') return (await findDataPlan(provider, row.network!, row.plan_id!))?.price ?? null;
      if (row.service === 'cable') return (await findCode(provider, 'cable_plans', row.plan_id!, row.product!))?.price ?? null;
      if (row.service === 'exam') {
        const p = (await findCode(provider, 'exam_products', row.product!))?.price;
        return p == null ? null : p * BigInt(row.quantity ?? 1);
      }
      return BigInt(row.wholesale);
    } catch {
      return null;
    }
  }

  function nextProvider(row: VtuRow): ProviderId | null {
    const r = cfg.routing[row.service] ?? [];
    const i = r.indexOf(row.provider as ProviderId);
    const next = r.slice(i + 1).find((p) => !row.providers_tried.includes(p));
    return next ?? null;
  }

  const { firstCheckDelay, settleSuccess, settleFailed, reroute, keepPending, applyRequery } = createVtuSettlement({
    db,
    clock,
    log,
    ledger,
    notifier,
    events,
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
        out = await providers[provider].purchase(req);
        if (out.status === 'low_float') {
          await ensureFloat(provider, req.wholesale, true).catch((err) =>
            log.warn({ provider, err: (err as Error).message }, 'float top-up failed'),
          );
          out = await providers[provider].purchase(req);
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

  const verifyWith = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ProviderError)
        throw new AppError('UPSTREAM_ERROR', 'The provider could not be reached for verification; try again shortly', { cause: err });
      throw err;
    }
  };

  return {
    providers,
    markups,

    // ----- catalogues (retail prices) -----
    async airtimeNetworks() {
      const provider = route('airtime')[0];
      return (await catalogue.get(provider, 'airtime_networks')).map((n) => ({
        id: n.code,
        name: NETWORK_NAMES[n.code as Network] ?? n.name,
        minAmount: n.minAmount !== undefined ? toNaira(n.minAmount) : 50,
        maxAmount: n.maxAmount !== undefined ? toNaira(n.maxAmount) : 50_000,
      }));
    },
    async dataNetworks() {
      const plans = await dataPlansOf(route('data')[0]);
      return NETWORKS.filter((n) => plans.some((p) => p.network === n)).map((n) => ({ id: n, name: NETWORK_NAMES[n] }));
    },
    async dataPlanTypes(network: string) {
      const plans = await dataPlansOf(route('data')[0]);
      const types = [...new Set(plans.filter((p) => p.network === network).map((p) => p.planType!))];
      return types.map((t) => ({ planType: t, network, plans: plans.filter((p) => p.network === network && p.planType === t).length }));
    },
    dataPlans,
    async cableProviders() {
      return (await catalogue.get(route('cable')[0], 'cable_providers')).map((c) => ({ id: c.code, name: c.name }));
    },
    async cablePlans(identifier: string) {
      const provider = route('cable')[0];
      return (await retailList('cable', provider, await catalogue.get(provider, 'cable_plans', identifier)))
        .filter((x) => x.retail !== null)
        .map(({ e, retail }) => ({ plan_id: e.code, identifier, name: e.name, price: toNaira(retail!) }));
    },
    async electricityPlans() {
      return (await catalogue.get(route('electricity')[0], 'electricity_discos')).map((d) => ({
        id: d.code,
        name: d.name,
        types: ['prepaid', 'postpaid'],
        minAmount: 1000,
      }));
    },
    async betCompanies() {
      return (await catalogue.get(route('betting')[0], 'bet_companies')).map((c) => ({ id: c.code, name: c.name }));
    },
    async educationPins() {
      const provider = route('exam')[0];
      return (await retailList('exam', provider, await catalogue.get(provider, 'exam_products')))
        .filter((x) => x.retail !== null)
        .map(({ e, retail }) => ({ plan_id: e.code, name: e.name, price: toNaira(retail!), requiresProfileId: e.code.startsWith('jamb') }));
    },

    async quote(input: { service: ServiceName; provider?: ProviderId; wholesale: number }) {
      const provider = input.provider ?? route(input.service)[0];
      const p = await priced(input.service, provider, toKobo(input.wholesale));
      return { service: input.service, provider, wholesale: toNaira(p.wholesale), markup: toNaira(p.markup), retail: toNaira(p.retail) };
    },

    quotePurchase,

    async verifyCable(input: { iuc: string; identifier: string }) {
      const r = await verifyWith(() => providers[route('cable')[0]].verify('cable', { account: input.iuc, product: input.identifier }));
      if (!r.found)
        throw new AppError('NOT_FOUND', `Smartcard ${input.iuc} was not found on ${input.identifier}${r.message ? `: ${r.message}` : ''}`);
      return { customerName: r.customerName!, iuc: input.iuc, identifier: input.identifier };
    },
    async verifyMeter(input: { meter: string; plan: string; type: 'prepaid' | 'postpaid' }) {
      const r = await verifyWith(() =>
        providers[route('electricity')[0]].verify('electricity', { account: input.meter, product: input.plan, meterType: input.type }),
      );
      if (!r.found)
        throw new AppError('NOT_FOUND', `Meter ${input.meter} was not found at ${input.plan}${r.message ? `: ${r.message}` : ''}`);
      return { customerName: r.customerName!, address: r.address ?? null, meter: input.meter, plan: input.plan, type: input.type };
    },
    async verifyBet(input: { betting_company: string; customer_id: string }) {
      const r = await verifyWith(() =>
        providers[route('betting')[0]].verify('betting', { account: input.customer_id, product: input.betting_company }),
      );
      if (!r.found) throw new AppError('NOT_FOUND', `Customer ${input.customer_id} was not found at ${input.betting_company}`);
      return { customerName: r.customerName!, customer_id: input.customer_id, betting_company: input.betting_company };
    },

    /**
     * The purchase path, shared by the HTTP operations and by scheduled purchases. The caller has checked the
     * PIN (HTTP gate, or at schedule time); Tier 1 is re-checked here.
     */
    async purchase<K extends PurchaseKind>(user: Purchaser, kind: K, input: PurchaseInputs[K]) {
      if (user.kycTier < 1) throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 1 is required for purchases');
      const p = await prepare(kind, input);
      const now = clock.now();
      const id = uuid();
      const reference = prefixedId('vtu', now.getTime());
      const row: repo.NewVtuRow = {
        id,
        reference,
        requestId: requestIdFor(now),
        userId: user.id,
        service: p.service,
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
        provider: p.provider,
        ported: p.ported,
        now,
        // If this process dies before the provider answers, reconciliation picks the row up from here.
        nextCheckAt: new Date(now.getTime() + firstCheckDelay()),
      };
      // ONE autocommit statement: the posting locks the wallet, checks the daily limit and the balance on the locked
      // row, debits it and writes the purchase row with it (a part); refused, it writes nothing.
      await ledger.postAlone(db, {
        reference,
        type: 'vtu_purchase',
        description: `${capital(SERVICE_LABEL[p.service])} for ${p.recipient}`,
        entries: purchaseEntries(user.id, p.retail, p.provider, p.wholesale, p.markup),
        metadata: { transactionId: id },
        limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
        parts: [repo.insertOnPosting(row)],
      });
      faultPoint('vtu.purchase.afterDebit');
      let settled: repo.VtuRow | null = null;
      try {
        settled = await attempt(repo.newRowOf(row));
      } catch (err) {
        // The money is safe: the row stays processing and reconciliation settles it.
        log.error({ err, transactionId: id }, 'vtu purchase attempt failed after the debit');
      }
      return toTransaction(settled ?? (await mustGet(id)));
    },

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
              await applyRequery(row, await providers[row.provider as ProviderId].requery(row.request_id));
            } catch (err) {
              log.error({ err, transactionId: row.id }, 'vtu requery failed');
            }
          }),
        );
        done += batch.length;
      }
      return done;
    },

    ...createVtuAdmin({ db, clock, cfg, providers, markups, applyRequery, settleSuccess, settleFailed, mustGet }),
    adminListFloats: float.listFloats,
    adminFundFloat: float.fundFloat,
  };
}

export type VtuServiceApi = ReturnType<typeof createVtuService>;
