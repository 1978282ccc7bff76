import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { EventBus, Work } from '../../platform/change.js';
import type { Logger } from '../../lib/logger.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ProviderId, VtuProvider } from '../../providers/vtu/types.js';
import type { WalletLimits } from '../wallet/api.js';
import { createVtuAdmin } from './admin.js';
import { createCatalogue } from './catalogue.js';
import type { VtuPurchaseDeps } from './deps.js';
import { createProviderFloat } from './float.js';
import { dataPlans } from './kinds/data/index.js';
import { INBOUND_KINDS, inboundRouting } from './kinds/index.js';
import type { KindContext, Purchaser, VtuCore } from './kinds/kind.js';
import { applySetting, catalogue as levelCatalogue, preview, setPlanEnabled, settingTarget, type PriceSetting } from './level-admin.js';
import { previewMarkup, type MarkupDraft } from './markup-preview.js';
import { myLevel, upgrade } from './level-upgrade.js';
import { createLevels } from './levels.js';
import { createMarkups } from './markups.js';
import { getMine, listMine } from './my-purchases.js';
import { createPricing } from './pricing.js';
import { createRouting } from './routing.js';
import { namedProviders, ownRow, routingOf } from './routing-admin.js';
import { requery as requeryAt, wholesaleAt } from './provider-requests.js';
import { mustGet as mustGetRow, purchase as purchaseVtu } from './purchase.js';
import { quote } from './quote.js';
import { reconcileDue } from './reconcile.js';
import * as repo from './repository.js';
import type { PurchaseChannel, VtuRow } from './repository.js';
import { createVtuSettlement } from './settlement.js';

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

/** The vtu module's service: its use cases (purchase.ts, reconcile.ts, quote.ts, my-purchases.ts, admin.ts) wired to its dependencies. */
export function createVtuService(deps: VtuDeps) {
  const { config, db, clock, log, ledger, walletLimits, work, providers } = deps;
  const cfg = config.vtu;
  const catalogue = createCatalogue({ db, readDb: deps.replica.lagTolerant, clock, log });
  const markups = createMarkups({ db, clock });
  const levels = createLevels({ db, clock });
  const routes = createRouting({ db, clock, configured: cfg.routing });
  const pricing = createPricing({ cfg, catalogue, markups, levels, routes, providers, platform: { db, clock, work } });
  const { context } = pricing;
  // The floats list each kind under the providers its console rows and VTU_ROUTING name, read when listed; the inbound
  // kinds (airtime-to-cash), modules of their own without console rows, by VTU_ROUTING alone.
  const inbound = Object.fromEntries(INBOUND_KINDS.map((k) => [k.name, inboundRouting(k, cfg.routing)]));
  const floatRouting = async () => ({ ...(await namedProviders(routes)), ...inbound });
  const float = createProviderFloat({ db, clock, log, ledger, work, cfg, routing: floatRouting, providers });
  const requests = { pricing, providers };
  const settlement = createVtuSettlement({ db, clock, log, work, cfg, wholesaleAt: (row, to) => wholesaleAt(requests, row, to) });
  const { settleSuccess, settleFailed, applyRequery } = settlement;
  const money: VtuPurchaseDeps = { ...requests, db, clock, log, work, cfg, walletLimits, ensureFloat: float.ensureFloat, settlement };
  const purchase = (user: Purchaser, kind: string, input: object, channel?: PurchaseChannel) =>
    purchaseVtu(money, user, kind, input, channel);
  const requery = (row: VtuRow) => requeryAt(requests, row);
  const mustGet = (id: string) => mustGetRow(db, id);

  const core: VtuCore = {
    purchase: (user, kind, input) => purchase(user, kind, input),
    kind: (name) => context(name),
    ownRow: (userId, id) => repo.getOwnTransaction(deps.replica.forUser(userId), userId, id),
  };

  return {
    providers,
    markups,
    /** The price levels, their prices and switched-off plans (levels.ts). */
    levels,
    /** Provider routing: the console's orders over VTU_ROUTING (routing.ts). */
    routes,
    /** A kind's context (kinds/kind.ts): its routing, prices (the default level's), cached catalogue and adapters. */
    kind: (name: string): KindContext => context(name),
    /** A kind's context at the customer's price level (issue 45): what the customer's lists and purchases are priced at. */
    kindFor: (name: string, userId: string): Promise<KindContext> => pricing.contextFor(name, userId),
    /** The VTU core's calls lent to the kinds' operations. */
    core,
    /** The retail data plans, at the customer's level when named (schedules' data purchases choose from them). */
    dataPlans: async (network?: string, planType?: string, userId?: string) =>
      dataPlans(userId ? await pricing.contextFor('data', userId) : context('data'), network, planType),
    quote: (input: { service: string; provider?: ProviderId; wholesale: number }) => quote(pricing, input),
    quotePurchase: pricing.quotePurchase,
    /** The purchase path (purchase.ts), shared by the HTTP operations, the USSD menu and scheduled purchases. */
    purchase,
    listMine: (userId: string, f: Parameters<typeof listMine>[2]) => listMine(deps, userId, f),
    getMine: (userId: string, id: string) => getMine(deps.replica, userId, id),
    /** Requeries every due processing transaction once (reconcile.ts); returns how many were checked. */
    reconcileDue: (max?: number) => reconcileDue(money, max),

    ...createVtuAdmin({ db, clock, cfg, requery, markups, applyRequery, settleSuccess, settleFailed, mustGet }),
    ...levelCalls({ db, clock, work, walletLimits, pricing, markups, levels }),
    adminListFloats: float.listFloats,
    adminFundFloat: float.fundFloat,
    ...routingCalls({ routes, providerNames: cfg.providerNames }),
  };
}

/** Issue 45: the customer's level and its upgrade; the console's catalogue and price settings (level-admin.ts). */
function levelCalls(deps: Parameters<typeof upgrade>[0] & Parameters<typeof levelCatalogue>[0]) {
  return {
    myPriceLevel: (userId: string) => myLevel(deps, userId),
    upgradePriceLevel: (user: Purchaser, level: string) => upgrade(deps, user, level),
    adminCatalogue: (service: string, opts: { network?: string; identifier?: string }) => levelCatalogue(deps, service, opts),
    adminSetPlanEnabled: (actorId: string, i: { service: string; plan: string; enabled: boolean }) => setPlanEnabled(deps, actorId, i),
    adminPreviewPriceChange: (s: Extract<PriceSetting, { change: 'price' }>, identifier?: string) => preview(deps, s, identifier),
    adminPreviewMarkup: (m: MarkupDraft) => previewMarkup(deps, m),
    /** Approvals' `price_setting`: what it is about (checked when asked), and its run once approved. */
    adminPriceSettingTarget: (s: PriceSetting) => settingTarget(deps, s),
    adminApplyPriceSetting: (actorId: string, s: PriceSetting, claim?: (tx: Tx) => Promise<void>) => applySetting(deps, actorId, s, claim),
  };
}

/** Issue 45: the console's provider routing per service and network (routing-admin.ts). */
function routingCalls(deps: Parameters<typeof routingOf>[0]) {
  const one = async (service: string) => (await routingOf(deps, service))[0];
  return {
    adminRouting: () => routingOf(deps),
    adminRoutingRow: (service: string, network?: string) => ownRow(deps, service, network ?? ''),
    async adminSetRouting(actorId: string, i: { service: string; network?: string; providers: ProviderId[] }) {
      await deps.routes.set(actorId, { service: i.service, network: i.network ?? '', providers: i.providers });
      return one(i.service);
    },
    async adminClearRouting(i: { service: string; network?: string }) {
      const cleared = await deps.routes.clear({ service: i.service, network: i.network ?? '' });
      return { cleared, routing: await one(i.service) };
    },
  };
}

export type VtuServiceApi = ReturnType<typeof createVtuService>;
