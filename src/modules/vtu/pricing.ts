import type { Config } from '../../config.js';
import { AppError } from '../../kernel/errors.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { CatalogueEntry, ProviderId, VtuService as ServiceName } from '../../providers/vtu/types.js';
import type { Catalogue } from './catalogue.js';
import { applyMarkup, type Markups } from './markups.js';
import { assertRecipientNetwork, feeSplit, NETWORK_NAMES, type Prepared, type PurchaseInputs, type PurchaseKind } from './model.js';

export interface QuoteInput {
  service: ServiceName;
  amount?: number;
  network?: string;
  plan_id?: string;
  identifier?: string;
  exam?: string;
  quantity?: number;
}

/**
 * Routing and prices: which provider sells a service, retail prices (wholesale + markup) of catalogue entries,
 * and `prepare`, which validates a purchase against the catalogue and checks the price the buyer confirmed.
 */
export function createPricing(deps: { cfg: Config['vtu']; catalogue: Catalogue; markups: Markups }) {
  const { cfg, catalogue, markups } = deps;

  const route = (service: ServiceName): ProviderId[] => {
    const r = cfg.routing[service];
    if (!r?.length) throw new AppError('SERVICE_UNAVAILABLE', `No provider is configured for ${service}`);
    return r;
  };

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
    const list = (await dataPlansOf(provider)).filter(
      (p) => (!network || p.network === network) && (!planType || p.planType === planType.toUpperCase()),
    );
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
        return {
          service: 'airtime',
          recipient: i.phone,
          network: i.network,
          ported: Boolean(i.ported),
          provider,
          ...(await priced('airtime', provider, toKobo(i.amount))),
        };
      }
      case 'data': {
        const i = raw as PurchaseInputs['data'];
        assertRecipientNetwork(i.network, i.phone, i.ported);
        const provider = route('data')[0];
        const plan = await findDataPlan(provider, i.network, i.plan_id);
        if (!plan)
          throw new AppError(
            'VALIDATION_FAILED',
            `plan_id ${i.plan_id} is not a current ${NETWORK_NAMES[i.network]} data plan; list the plans again`,
            { issues: [{ path: 'plan_id', message: 'unknown plan' }] },
          );
        const p = await priced('data', provider, plan.price!);
        assertPrice(i.amount, p.retail, `this plan`);
        return { service: 'data', recipient: i.phone, network: i.network, planId: i.plan_id, ported: Boolean(i.ported), provider, ...p };
      }
      case 'cable': {
        const i = raw as PurchaseInputs['cable'];
        const provider = route('cable')[0];
        const plan = await findCode(provider, 'cable_plans', i.plan_id, i.identifier);
        if (!plan || plan.price === null)
          throw new AppError('VALIDATION_FAILED', `plan_id ${i.plan_id} is not a current ${i.identifier} plan; list the plans again`, {
            issues: [{ path: 'plan_id', message: 'unknown plan' }],
          });
        const p = await priced('cable', provider, plan.price);
        assertPrice(i.amount, p.retail, `${plan.name}`);
        return {
          service: 'cable',
          recipient: i.iuc,
          planId: i.plan_id,
          product: i.identifier,
          phone: i.phone,
          ported: false,
          provider,
          ...p,
        };
      }
      case 'electricity': {
        const i = raw as PurchaseInputs['electricity'];
        const provider = route('electricity')[0];
        return {
          service: 'electricity',
          recipient: i.meter,
          product: i.plan,
          meterType: i.type,
          phone: i.phone,
          ported: false,
          provider,
          ...(await priced('electricity', provider, toKobo(i.amount))),
        };
      }
      case 'betting': {
        const i = raw as PurchaseInputs['betting'];
        const provider = route('betting')[0];
        const companies = await catalogue.get(provider, 'bet_companies');
        if (!companies.some((c) => c.code === i.betting_company)) {
          throw new AppError('VALIDATION_FAILED', `betting_company ${i.betting_company} is not supported; see listBetCompanies`, {
            issues: [{ path: 'betting_company', message: 'unknown company' }],
          });
        }
        return {
          service: 'betting',
          recipient: i.customer_id,
          product: i.betting_company,
          ported: false,
          provider,
          ...(await priced('betting', provider, toKobo(i.amount))),
        };
      }
      case 'exam': {
        const i = raw as PurchaseInputs['exam'];
        const provider = route('exam')[0];
        const product = await findCode(provider, 'exam_products', i.exam);
        if (!product || product.price === null)
          throw new AppError('VALIDATION_FAILED', `exam ${i.exam} is not offered; see listEducationPins`, {
            issues: [{ path: 'exam', message: 'unknown exam' }],
          });
        if (i.exam.startsWith('jamb') && !i.profile_id)
          throw new AppError('VALIDATION_FAILED', 'profile_id (the JAMB profile code) is required for JAMB PINs', {
            issues: [{ path: 'profile_id', message: 'required for JAMB' }],
          });
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

  /**
   * quotePurchase (issue 29: the fee before paying): what the buyer gets, the fee and the total the wallet pays, by
   * the same routing and prices as the purchase. Electricity units are known only once the provider vends the token:
   * they come with the transaction.
   */
  async function quotePurchase(i: QuoteInput) {
    const answer = (name: string | null, p: { wholesale: bigint; markup: bigint; retail: bigint }) => {
      const { value, fee } = feeSplit(i.service, p.retail, p.markup);
      return { service: i.service, name, amount: toNaira(value), fee: toNaira(fee), total: toNaira(p.retail) };
    };
    const unknownPlan = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });
    const provider = route(i.service)[0];
    switch (i.service) {
      case 'airtime':
      case 'electricity':
      case 'betting':
        return answer(null, await priced(i.service, provider, toKobo(i.amount!)));
      case 'data': {
        const plan = await findDataPlan(provider, i.network!, i.plan_id!);
        if (!plan) throw unknownPlan('plan_id', 'This data plan is no longer offered; choose another');
        return answer(plan.name, await priced('data', provider, plan.price!));
      }
      case 'cable': {
        const plan = await findCode(provider, 'cable_plans', i.plan_id!, i.identifier!);
        if (!plan || plan.price === null) throw unknownPlan('plan_id', 'This TV plan is no longer offered; choose another');
        return answer(plan.name, await priced('cable', provider, plan.price));
      }
      case 'exam': {
        const product = await findCode(provider, 'exam_products', i.exam!);
        if (!product || product.price === null) throw unknownPlan('exam', 'This exam PIN is not offered; choose another');
        const unit = await priced('exam', provider, product.price);
        const q = BigInt(i.quantity ?? 1);
        return answer(product.name, { wholesale: unit.wholesale * q, markup: unit.markup * q, retail: unit.retail * q });
      }
    }
  }

  return { route, priced, dataPlansOf, findDataPlan, findCode, retailList, dataPlans, prepare, quotePurchase };
}
