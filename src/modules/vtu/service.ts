import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Db, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Entry, Ledger } from '../../ledger/ledger.js';
import { HOUR, MINUTE, type Clock } from '../../lib/clock.js';
import type { EventBus } from '../../lib/events.js';
import { prefixedId, ulid, uuid } from '../../lib/ids.js';
import { faultPoint } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira, toKobo, toNaira } from '../../lib/money.js';
import { networkOf, NETWORKS, type Network } from '../../lib/phone.js';
import type { JobQueue } from '../../jobs/queue.js';
import { createVtuProviders } from '../../providers/vtu/index.js';
import { VtuTransport } from '../../providers/vtu/transport.js';
import {
  PROVIDER_IDS,
  ProviderError,
  type CatalogueEntry,
  type Outcome,
  type ProviderId,
  type PurchaseRequest,
  type VtuService as ServiceName,
} from '../../providers/vtu/types.js';
import type { Notifier } from '../notifications/notifier.js';
import type { WalletLimits } from '../wallet/limits.js';
import { createCatalogue } from './catalogue.js';
import { applyMarkup, createMarkups } from './markups.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';

/**
 * VTU purchases (spec 1 rules 1-6, section 3; DESIGN §7). The order of a purchase: validation and the network
 * prefix check (before any debit) -> PIN and Tier 1 (registry gates) -> price check -> ONE database transaction
 * that debits the wallet and records `processing` -> just-in-time provider float -> provider call with a stable
 * request id -> success, failed with refund (in the transaction that marks it failed), or still processing.
 * A timeout or an unclear answer is never a failure: reconciliation requeries the same provider with the same
 * request id. Refunds and successes are guarded by a conditional UPDATE ... WHERE status = 'processing' and a
 * unique ledger reference, so each happens at most once whoever gets there first.
 */
export type PurchaseKind = ServiceName;

export interface PurchaseInputs {
  airtime: { network: Network; phone: string; amount: number; ported?: boolean };
  data: { network: Network; plan_id: string; phone: string; amount: number; ported?: boolean };
  cable: { identifier: string; iuc: string; plan_id: string; amount: number; phone: string };
  electricity: { plan: string; meter: string; type: 'prepaid' | 'postpaid'; amount: number; phone: string };
  betting: { betting_company: string; customer_id: string; amount: number };
  exam: { exam: string; quantity: number; phone: string; amount: number; profile_id?: string };
}

export interface Purchaser {
  id: string;
  kycTier: number;
}

export const NETWORK_NAMES: Record<Network, string> = { mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile' };
const SERVICE_LABEL: Record<ServiceName, string> = {
  airtime: 'airtime',
  data: 'data',
  cable: 'cable TV subscription',
  electricity: 'electricity token',
  betting: 'betting wallet funding',
  exam: 'exam PIN',
};

/** Spec rule 5: the recipient's network must match the prefix map unless the buyer says the number is ported. */
export function assertRecipientNetwork(network: Network, phone: string, ported: boolean | undefined) {
  if (ported) return;
  const actual = networkOf(phone);
  if (actual !== network) {
    throw new AppError(
      'NETWORK_MISMATCH',
      actual
        ? `${phone} is a ${NETWORK_NAMES[actual]} number, not ${NETWORK_NAMES[network]}; pick ${NETWORK_NAMES[actual]} or send ported: true if the number was ported`
        : `${phone} does not belong to ${NETWORK_NAMES[network]} by its prefix; send ported: true if the number was ported`,
    );
  }
}

/** VTpass-style request ids start with the Lagos date and time (YYYYMMDDHHmm); the rest is unique. */
export function requestIdFor(now: Date): string {
  const lagos = new Date(now.getTime() + HOUR).toISOString();
  return lagos.slice(0, 16).replace(/[-T:]/g, '') + ulid(now.getTime());
}

interface Prepared {
  service: ServiceName;
  recipient: string;
  network?: string;
  planId?: string;
  product?: string;
  meterType?: 'prepaid' | 'postpaid';
  quantity?: number;
  phone?: string;
  profileId?: string;
  ported: boolean;
  provider: ProviderId;
  wholesale: bigint;
  markup: bigint;
  retail: bigint;
}

export interface VtuDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  walletLimits: WalletLimits;
  notifier: Notifier;
  events: EventBus;
  jobs: JobQueue;
}

export function createVtuService(deps: VtuDeps) {
  const { config, db, clock, log, ledger, walletLimits, notifier, events } = deps;
  const cfg = config.vtu;
  const transport = new VtuTransport();
  const providers = createVtuProviders(cfg.providers, cfg.timeoutMs, transport);
  const catalogue = createCatalogue({ db, clock, log, providers });
  const markups = createMarkups({ db, clock });

  const route = (service: ServiceName): ProviderId[] => {
    const r = cfg.routing[service];
    if (!r?.length) throw new AppError('SERVICE_UNAVAILABLE', `No provider is configured for ${service}`);
    return r;
  };
  const firstCheckDelay = () => Math.max(cfg.reconcileEveryMs, 2 * cfg.timeoutMs);
  const backoff = (requeries: number) => Math.min(cfg.reconcileEveryMs * 2 ** Math.max(0, requeries - 1), 10 * MINUTE);

  async function priced(service: ServiceName, provider: ProviderId, wholesale: bigint) {
    const markup = applyMarkup(await markups.ruleFor(service, provider), wholesale);
    return { wholesale, markup, retail: wholesale + markup };
  }

  function assertPrice(amountNaira: number, retail: bigint, what: string) {
    if (toKobo(amountNaira) !== retail) {
      throw new AppError('PRICE_CHANGED', `The price of ${what} is now ${formatNaira(retail)}; quote again and confirm the new price`);
    }
  }

  // ---------- catalogues ----------
  async function dataPlansOf(provider: ProviderId) {
    return (await catalogue.get(provider, 'data_plans')).filter((p) => p.key && p.network && p.price !== null);
  }
  async function findDataPlan(provider: ProviderId, network: string, planKey: string) {
    return (await dataPlansOf(provider)).find((p) => p.key === planKey && p.network === network);
  }
  async function findCode(provider: ProviderId, kind: 'cable_plans' | 'exam_products', code: string, arg?: string) {
    return (await catalogue.get(provider, kind, arg)).find((e) => e.code === code);
  }

  async function retailList(service: ServiceName, provider: ProviderId, entries: CatalogueEntry[]) {
    const rule = await markups.ruleFor(service, provider);
    return entries.map((e) => ({ e, retail: e.price === null ? null : e.price + applyMarkup(rule, e.price) }));
  }

  async function dataPlans(network?: string, planType?: string) {
    const provider = route('data')[0];
    const list = (await dataPlansOf(provider)).filter((p) => (!network || p.network === network) && (!planType || p.planType === planType.toUpperCase()));
    return (await retailList('data', provider, list)).map(({ e, retail }) => ({
      plan_id: e.key!,
      network: e.network!,
      planType: e.planType!,
      name: e.name,
      validity: e.validity ?? '',
      price: toNaira(retail!),
    }));
  }

  // ---------- prepare (validation, prices) ----------
  async function prepare<K extends PurchaseKind>(kind: K, raw: PurchaseInputs[K]): Promise<Prepared> {
    switch (kind) {
      case 'airtime': {
        const i = raw as PurchaseInputs['airtime'];
        assertRecipientNetwork(i.network, i.phone, i.ported);
        const provider = route('airtime')[0];
        return { service: 'airtime', recipient: i.phone, network: i.network, ported: Boolean(i.ported), provider, ...(await priced('airtime', provider, toKobo(i.amount))) };
      }
      case 'data': {
        const i = raw as PurchaseInputs['data'];
        assertRecipientNetwork(i.network, i.phone, i.ported);
        const provider = route('data')[0];
        const plan = await findDataPlan(provider, i.network, i.plan_id);
        if (!plan) throw new AppError('VALIDATION_FAILED', `plan_id ${i.plan_id} is not a current ${NETWORK_NAMES[i.network]} data plan; list the plans again`, { issues: [{ path: 'plan_id', message: 'unknown plan' }] });
        const p = await priced('data', provider, plan.price!);
        assertPrice(i.amount, p.retail, `this plan`);
        return { service: 'data', recipient: i.phone, network: i.network, planId: i.plan_id, ported: Boolean(i.ported), provider, ...p };
      }
      case 'cable': {
        const i = raw as PurchaseInputs['cable'];
        const provider = route('cable')[0];
        const plan = await findCode(provider, 'cable_plans', i.plan_id, i.identifier);
        if (!plan || plan.price === null) throw new AppError('VALIDATION_FAILED', `plan_id ${i.plan_id} is not a current ${i.identifier} plan; list the plans again`, { issues: [{ path: 'plan_id', message: 'unknown plan' }] });
        const p = await priced('cable', provider, plan.price);
        assertPrice(i.amount, p.retail, `${plan.name}`);
        return { service: 'cable', recipient: i.iuc, planId: i.plan_id, product: i.identifier, phone: i.phone, ported: false, provider, ...p };
      }
      case 'electricity': {
        const i = raw as PurchaseInputs['electricity'];
        const provider = route('electricity')[0];
        return { service: 'electricity', recipient: i.meter, product: i.plan, meterType: i.type, phone: i.phone, ported: false, provider, ...(await priced('electricity', provider, toKobo(i.amount))) };
      }
      case 'betting': {
        const i = raw as PurchaseInputs['betting'];
        const provider = route('betting')[0];
        const companies = await catalogue.get(provider, 'bet_companies');
        if (!companies.some((c) => c.code === i.betting_company)) {
          throw new AppError('VALIDATION_FAILED', `betting_company ${i.betting_company} is not supported; see listBetCompanies`, { issues: [{ path: 'betting_company', message: 'unknown company' }] });
        }
        return { service: 'betting', recipient: i.customer_id, product: i.betting_company, ported: false, provider, ...(await priced('betting', provider, toKobo(i.amount))) };
      }
      case 'exam': {
        const i = raw as PurchaseInputs['exam'];
        const provider = route('exam')[0];
        const product = await findCode(provider, 'exam_products', i.exam);
        if (!product || product.price === null) throw new AppError('VALIDATION_FAILED', `exam ${i.exam} is not offered; see listEducationPins`, { issues: [{ path: 'exam', message: 'unknown exam' }] });
        if (i.exam.startsWith('jamb') && !i.profile_id) throw new AppError('VALIDATION_FAILED', 'profile_id (the JAMB profile code) is required for JAMB PINs', { issues: [{ path: 'profile_id', message: 'required for JAMB' }] });
        const unit = await priced('exam', provider, product.price);
        const q = BigInt(i.quantity);
        const retail = unit.retail * q;
        assertPrice(i.amount, retail, `${i.quantity} × ${product.name}`);
        return {
          service: 'exam',
          recipient: i.phone,
          product: i.exam,
          quantity: i.quantity,
          phone: i.phone,
          profileId: i.profile_id,
          ported: false,
          provider,
          wholesale: unit.wholesale * q,
          markup: unit.markup * q,
          retail,
        };
      }
    }
    throw new AppError('VALIDATION_FAILED', `unknown purchase kind ${String(kind)}`);
  }

  // ---------- ledger ----------
  const floatAccount = (p: string) => ({ system: `provider_float:${p}` as const });
  function purchaseEntries(userId: string, retail: bigint, provider: string, wholesale: bigint, markup: bigint): Entry[] {
    const e: Entry[] = [
      { account: { user: userId, kind: 'wallet' }, amount: -retail },
      { account: floatAccount(provider), amount: wholesale },
    ];
    if (markup !== 0n) e.push({ account: { system: 'revenue' }, amount: markup });
    return e;
  }

  // ---------- provider float (spec rule 3: just-in-time from the collections pool) ----------
  const floatEstimate = new Map<ProviderId, bigint>();
  const refilling = new Map<ProviderId, Promise<void>>();

  async function fundProvider(provider: ProviderId, amount: bigint, actorId: string | null, why: string): Promise<bigint> {
    const reference = prefixedId('vtf', clock.now().getTime());
    // Provider first, ledger second: a failed funding call moves nothing on our books.
    const balance = await providers[provider].fund(amount, reference);
    await db.transaction(async (tx) => {
      await ledger.tryPost(tx, {
        reference,
        type: 'vtu_float_funding',
        description: `${why}: provider ${provider.toUpperCase()} float funded from the collections pool`,
        entries: [
          { account: floatAccount(provider), amount: -amount },
          { account: { system: 'collections' }, amount },
        ],
        metadata: { provider, actorId },
      });
      if (actorId) await audit(tx, actorId, 'vtu.float.fund', 'provider', provider, { amount: amount.toString(), reference });
    });
    floatEstimate.set(provider, balance);
    log.info({ provider, amount: amount.toString(), reference }, 'provider float funded');
    return balance;
  }

  /** Keeps a per-process estimate; asks the provider only when the estimate is short (or after a low-float refusal). */
  async function ensureFloat(provider: ProviderId, need: bigint, force = false) {
    const est = floatEstimate.get(provider);
    if (!force && est !== undefined && est >= need) {
      floatEstimate.set(provider, est - need);
      return;
    }
    let r = refilling.get(provider);
    if (!r) {
      r = (async () => {
        const bal = await providers[provider].balance();
        floatEstimate.set(provider, bal);
        // Funded only when the provider's own balance confirms the shortfall, so a provider that refuses for
        // another reason cannot pull the collections pool dry one purchase at a time.
        if (bal < need) {
          const topup = cfg.floatTopup > need * 2n ? cfg.floatTopup : need * 2n;
          await fundProvider(provider, topup, null, 'Just-in-time top-up');
        }
      })().finally(() => refilling.delete(provider));
      refilling.set(provider, r);
    }
    await r;
    floatEstimate.set(provider, (floatEstimate.get(provider) ?? 0n) - need);
  }

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

  // ---------- settlement ----------
  type OnSettled = (tx: Tx, done: VtuRow) => Promise<void>;

  /**
   * Returns the settled row, or null when another settlement got there first. Without onSettled (an operator's
   * record) and when every 'vtu.succeeded' subscriber can ride (EventBus.riding), the settlement, the buyer's
   * notification and the subscribers' first writes are ONE autocommit statement (issue 11: it was a transaction
   * of six round trips); what a subscriber has left runs after the commit.
   */
  async function settleSuccess(row: VtuRow, out: Outcome, onSettled?: OnSettled): Promise<VtuRow | null> {
    // The buyer's notification rides on the settling statement (the fields it uses never change after creation).
    const notice = notifier.onPosting([
      {
        userId: row.user_id,
        kind: 'purchase_delivered',
        title: `${capital(SERVICE_LABEL[row.service as ServiceName])} delivered`,
        body: `Your ${formatNaira(BigInt(row.amount))} ${SERVICE_LABEL[row.service as ServiceName]} for ${row.recipient} was delivered.${out.details?.token ? ` Token: ${out.details.token}` : ''}`,
        data: { transactionId: row.id, reference: row.reference },
      },
    ]);
    const settling = { details: { ...(out.details ?? {}) }, now: clock.now(), providerStatus: 'delivered' };
    // The event's fields are the row's as created: a settlement changes none of them.
    const event = { userId: row.user_id, transactionId: row.id, amount: BigInt(row.amount), service: row.service };
    const riding = onSettled ? null : events.riding('vtu.succeeded', event);
    if (riding) {
      const done = await repo.settle(db, row.id, row.provider, 'success', settling, [notice, ...riding.riders]);
      if (!done) return null;
      const { rider_outputs: outputs, ...settled } = done;
      faultPoint('vtu.settle.afterCommit');
      await riding.after(outputs ?? []);
      return settled;
    }
    return db.transaction(async (tx) => {
      const done = await repo.settle(tx, row.id, row.provider, 'success', settling, [notice]);
      if (!done) return null;
      await onSettled?.(tx, done);
      await events.emit(tx, 'vtu.succeeded', event);
      return done;
    });
  }

  /** Returns the settled row, or null when another settlement got there first. */
  async function settleFailed(row: VtuRow, reason: string | undefined, providerStatus: string, onSettled?: OnSettled): Promise<VtuRow | null> {
    return db.transaction(async (tx) => {
      const done = await repo.settle(tx, row.id, row.provider, 'failed', { failureReason: reason ?? 'The provider could not complete this purchase', now: clock.now(), providerStatus });
      if (!done) return null;
      await onSettled?.(tx, done);
      // Refund in the same transaction that marks it failed; the reference makes a second refund impossible.
      await ledger.post(tx, {
        reference: `vtu_refund_${done.reference}`,
        type: 'vtu_refund',
        description: `Refund: ${SERVICE_LABEL[done.service as ServiceName]} for ${done.recipient} failed`,
        entries: purchaseEntries(done.user_id, BigInt(done.amount), done.provider, BigInt(done.wholesale), BigInt(done.markup)).map((e) => ({ ...e, amount: -e.amount })),
        metadata: { transactionId: done.id },
        riders: [
          notifier.onPosting([
            {
              userId: done.user_id,
              kind: 'purchase_refunded',
              title: 'Purchase failed: refunded',
              body: `Your ${formatNaira(BigInt(done.amount))} ${SERVICE_LABEL[done.service as ServiceName]} for ${done.recipient} failed; ${formatNaira(BigInt(done.amount))} is back in your wallet.`,
              data: { transactionId: done.id, reference: done.reference },
            },
          ]),
        ],
      });
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
      await ledger.post(tx, { reference: `vtu_reroute_${row.reference}_${to}`, type: 'vtu_reroute', description: `Fallback ${row.provider.toUpperCase()} -> ${to.toUpperCase()}`, entries, metadata: { transactionId: row.id } });
      return moved;
    });
  }

  async function keepPending(row: VtuRow, providerStatus: string, requeries: number) {
    const now = clock.now();
    const stuck = now.getTime() - new Date(row.created_at).getTime() >= cfg.stuckAfterMs;
    if (stuck && !row.stuck_at) log.warn({ transactionId: row.id, reference: row.reference, provider: row.provider }, 'vtu transaction needs an operator');
    await repo.markPending(db, row.id, row.provider, { nextCheckAt: new Date(now.getTime() + (requeries === 0 ? firstCheckDelay() : backoff(requeries))), providerStatus, now, stuck });
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

  /** First attempt (and fallbacks) of a freshly debited purchase: the settled row, or null while it is pending. */
  async function attempt(initial: VtuRow): Promise<VtuRow | null> {
    let row = initial;
    for (let hop = 0; hop < PROVIDER_IDS.length; hop++) {
      const provider = row.provider as ProviderId;
      const req = await requestFor(row);
      let out: Outcome;
      if (!req) out = { status: 'failed', message: 'This product is not available at the provider' };
      else {
        await ensureFloat(provider, req.wholesale).catch((err) => log.warn({ provider, err: (err as Error).message }, 'float check failed'));
        out = await providers[provider].purchase(req);
        if (out.status === 'low_float') {
          await ensureFloat(provider, req.wholesale, true).catch((err) => log.warn({ provider, err: (err as Error).message }, 'float top-up failed'));
          out = await providers[provider].purchase(req);
        }
      }
      log.info({ transactionId: row.id, reference: row.reference, provider, outcome: out.status }, 'vtu provider answered');
      faultPoint('vtu.purchase.afterProvider');
      if (out.status === 'failed' || out.status === 'low_float') {
        // DESIGN §7: fall back only on a definite failure.
        const next = nextProvider(row);
        if (next) {
          const moved = await reroute(row, next);
          if (moved) {
            row = moved;
            continue;
          }
        }
        return settleFailed(row, out.status === 'low_float' ? 'The provider is temporarily unable to sell this product' : out.message, out.status);
      }
      if (out.status === 'delivered') return settleSuccess(row, out);
      await keepPending(row, out.status, 0);
      return null;
    }
    return null;
  }

  async function audit(tx: Tx, actorId: string, action: string, subjectType: string, subjectId: string, details: Record<string, unknown>) {
    await tx.execute(sql`INSERT INTO audit_log (id, actor_id, action, subject_type, subject_id, details, created_at)
                         VALUES (${uuid()}, ${actorId}, ${action}, ${subjectType}, ${subjectId}, ${JSON.stringify(details)}::jsonb, ${clock.now()})`);
  }

  const mustGet = async (id: string) => (await repo.getTransaction(db, id))!;

  const verifyWith = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ProviderError) throw new AppError('UPSTREAM_ERROR', 'The provider could not be reached for verification; try again shortly', { cause: err });
      throw err;
    }
  };

  return {
    transport,
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
      return (await catalogue.get(route('electricity')[0], 'electricity_discos')).map((d) => ({ id: d.code, name: d.name, types: ['prepaid', 'postpaid'], minAmount: 1000 }));
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

    async verifyCable(input: { iuc: string; identifier: string }) {
      const r = await verifyWith(() => providers[route('cable')[0]].verify('cable', { account: input.iuc, product: input.identifier }));
      if (!r.found) throw new AppError('NOT_FOUND', `Smartcard ${input.iuc} was not found on ${input.identifier}${r.message ? `: ${r.message}` : ''}`);
      return { customerName: r.customerName!, iuc: input.iuc, identifier: input.identifier };
    },
    async verifyMeter(input: { meter: string; plan: string; type: 'prepaid' | 'postpaid' }) {
      const r = await verifyWith(() => providers[route('electricity')[0]].verify('electricity', { account: input.meter, product: input.plan, meterType: input.type }));
      if (!r.found) throw new AppError('NOT_FOUND', `Meter ${input.meter} was not found at ${input.plan}${r.message ? `: ${r.message}` : ''}`);
      return { customerName: r.customerName!, address: r.address ?? null, meter: input.meter, plan: input.plan, type: input.type };
    },
    async verifyBet(input: { betting_company: string; customer_id: string }) {
      const r = await verifyWith(() => providers[route('betting')[0]].verify('betting', { account: input.customer_id, product: input.betting_company }));
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
      // row, debits it and writes the purchase row with it (a rider); refused, it writes nothing.
      await ledger.postAlone(db, {
        reference,
        type: 'vtu_purchase',
        description: `${capital(SERVICE_LABEL[p.service])} for ${p.recipient}`,
        entries: purchaseEntries(user.id, p.retail, p.provider, p.wholesale, p.markup),
        metadata: { transactionId: id },
        limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
        riders: [repo.insertOnPosting(row)],
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
      const list = await repo.listOwnTransactions(db, userId, f);
      return { items: list.slice(0, f.limit).map(toTransaction), limit: f.limit, offset: f.offset, hasMore: list.length > f.limit };
    },
    async getMine(userId: string, id: string) {
      const row = await repo.getOwnTransaction(db, userId, id);
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

    // ----- operators -----
    async adminRequery(id: string) {
      const row = await repo.getTransaction(db, id);
      if (!row) throw notFound('VTU transaction');
      if (row.status === 'processing') {
        await db.execute(sql`UPDATE vtu_transactions SET requery_count = requery_count + 1, last_checked_at = ${clock.now()} WHERE id = ${id}`);
        const out = await providers[row.provider as ProviderId].requery(row.request_id);
        await applyRequery({ ...row, requery_count: row.requery_count + 1 }, out);
        return { transaction: toTransaction(await mustGet(id)), providerStatus: out.status };
      }
      return { transaction: toTransaction(row), providerStatus: row.last_provider_status ?? row.status };
    },
    /**
     * An operator settles a processing purchase after confirming the outcome with the provider out of band
     * (e.g. a provider that cannot be reached). Same guarded transitions: a failure refunds exactly once.
     */
    async adminResolve(actorId: string, id: string, outcome: 'delivered' | 'failed', note: string) {
      const row = await repo.getTransaction(db, id);
      if (!row) throw notFound('VTU transaction');
      if (row.status !== 'processing') throw new AppError('CONFLICT', `This transaction is already ${row.status}`);
      const record: OnSettled = (tx, done) => audit(tx, actorId, `vtu.resolve.${outcome}`, 'vtu_transaction', done.id, { note, provider: done.provider });
      if (outcome === 'delivered') await settleSuccess(row, { status: 'delivered', details: { note: `Confirmed by an operator: ${note}` } }, record);
      else await settleFailed(row, `Resolved by an operator: ${note}`, 'operator', record);
      const after = await mustGet(id);
      if (after.status === 'processing') throw new AppError('CONFLICT', 'The transaction changed while resolving it; look again');
      return toTransaction(after);
    },
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
    async adminListFloats() {
      return Promise.all(
        PROVIDER_IDS.map(async (p) => {
          const ledgerFloat = -(await ledger.balance(db, floatAccount(p)));
          let providerBalance: number | null = null;
          try {
            providerBalance = toNaira(await providers[p].balance());
          } catch (err) {
            log.warn({ provider: p, err: (err as Error).message }, 'provider balance unavailable');
          }
          return {
            provider: p,
            services: Object.entries(cfg.routing)
              .filter(([, list]) => list.includes(p))
              .map(([s]) => s),
            ledgerFloat: toNaira(ledgerFloat),
            providerBalance,
          };
        }),
      );
    },
    async adminFundFloat(actorId: string, provider: ProviderId, amount: bigint) {
      try {
        const balance = await fundProvider(provider, amount, actorId, 'Operator funding');
        return { provider, amount: toNaira(amount), providerBalance: toNaira(balance) };
      } catch (err) {
        if (err instanceof ProviderError) throw new AppError('UPSTREAM_ERROR', `Provider ${provider.toUpperCase()} did not accept the funding: ${err.message}`, { cause: err });
        throw err;
      }
    },
    async adminSetMarkup(actorId: string, input: { service: ServiceName; provider?: ProviderId; kind: 'flat' | 'percent'; value: number }) {
      const value = input.kind === 'flat' ? toKobo(input.value) : BigInt(Math.round(input.value * 100));
      const m = await markups.set({ service: input.service, provider: input.provider ?? null, kind: input.kind, value, actorId });
      return toMarkupOut(m);
    },
    async adminListMarkups() {
      return (await markups.list()).map(toMarkupOut);
    },
  };
}

function toMarkupOut(m: { service: string; provider: string | null; kind: 'flat' | 'percent'; value: bigint; updatedAt: Date }) {
  return { service: m.service, provider: m.provider, kind: m.kind, value: m.kind === 'flat' ? toNaira(m.value) : Number(m.value) / 100, updatedAt: m.updatedAt.toISOString() };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** DESIGN §12 transaction shape; the request id and provider payloads stay inside. */
export function toTransaction(r: VtuRow) {
  const d = r.details ?? {};
  return {
    id: r.id,
    reference: r.reference,
    service: r.service,
    status: r.status,
    amount: toNaira(r.amount),
    recipient: r.recipient,
    ...(r.network ? { network: r.network } : {}),
    ...(r.plan_id ? { planId: r.plan_id } : {}),
    ...(r.product ? { product: r.product } : {}),
    ...(r.meter_type ? { meterType: r.meter_type } : {}),
    ...(r.quantity ? { quantity: r.quantity } : {}),
    ...(r.phone ? { phone: r.phone } : {}),
    provider: r.provider,
    ported: r.ported,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    ...(d.token ? { token: String(d.token) } : {}),
    ...(d.units ? { units: String(d.units) } : {}),
    ...(Array.isArray(d.pins) ? { pins: d.pins as { pin: string; serial?: string }[] } : {}),
    ...(d.customerName ? { customerName: String(d.customerName) } : {}),
    ...(r.failure_reason ? { failureReason: r.failure_reason } : {}),
  };
}

export type VtuServiceApi = ReturnType<typeof createVtuService>;
