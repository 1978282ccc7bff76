import { koboOf, providerClient, type VtuTransport } from './transport.js';
import {
  ProviderError,
  type CatalogueEntry,
  type CatalogueKind,
  type DeliveryDetails,
  type Outcome,
  type Phase,
  type PurchaseRequest,
  type VtuProvider,
} from './types.js';

/**
 * Provider C speaks the VTpass-style protocol (docs/design.md §11): POST /api/pay {request_id, serviceID, billersCode,
 * variation_code, amount, phone}, POST /api/requery {request_id}, GET /api/service-variations?serviceID=,
 * GET /api/services?identifier=, POST /api/merchant-verify. Code 000 + content.transactions.status
 * (initiated/pending/delivered), 099 processing, 016 failed, 040 reversed, 014 duplicate request_id,
 * 018 low float, 015 unknown request_id. Only explicit failure codes count as failures: anything unexpected is
 * pending and requeried.
 */
export interface HttpProviderConfig {
  baseUrl: string;
  key: string;
  secret?: string;
  timeoutMs: number;
  transport: VtuTransport;
}

const toNetworkService = (network: string) => (network === '9mobile' ? 'etisalat' : network);
const fromNetworkService = (serviceID: string) => (serviceID === 'etisalat' ? '9mobile' : serviceID);
const naira = (kobo: bigint) => Number(kobo) / 100;
export function vtpassOutcome(res: { status: number; body: any }, phase: Phase = 'purchase'): Outcome {
  const b = res.body;
  // Refused at the door (bad credentials): nothing was processed, a definite failure.
  if (res.status === 401 || res.status === 403)
    return phase === 'purchase'
      ? { status: 'failed', message: 'The provider refused our credentials' }
      : { status: 'unknown', message: 'requery refused' };
  if (res.status >= 500 || !b || typeof b !== 'object') return { status: 'unknown', message: `provider answered HTTP ${res.status}` };
  const code = String(b.code ?? '');
  const message = typeof b.response_description === 'string' ? b.response_description : undefined;
  switch (code) {
    case '000': {
      const st = String(b.content?.transactions?.status ?? '').toLowerCase();
      if (st === 'delivered') return { status: 'delivered', details: vtpassDetails(b), message };
      if (st === 'failed' || st === 'reversed') return { status: 'failed', message: message ?? 'Transaction failed' };
      return { status: 'pending', message };
    }
    case '099':
      return { status: 'pending', message };
    case '011': // invalid arguments: refused before processing
    case '012': // product does not exist
      return phase === 'purchase' ? { status: 'failed', message: message ?? 'Refused by the provider' } : { status: 'unknown', message };
    case '016':
    case '040':
      return { status: 'failed', message: message ?? 'Transaction failed' };
    case '018':
      return phase === 'purchase' ? { status: 'low_float', message } : { status: 'unknown', message };
    case '015':
      return { status: 'not_found', message };
    default:
      // 014 (duplicate request_id) and anything unexpected: we cannot tell, so requery later.
      return { status: 'unknown', message: message ?? `unexpected code ${code || '(none)'}` };
  }
}

function vtpassDetails(b: any): DeliveryDetails {
  const d: DeliveryDetails = {};
  const token =
    b.token ?? b.mainToken ?? (typeof b.purchased_code === 'string' ? b.purchased_code.replace(/^Token\s*:\s*/i, '') : undefined);
  if (token) d.token = String(token);
  if (b.units ?? b.mainTokenUnits) d.units = String(b.units ?? b.mainTokenUnits);
  if (b.customerName ?? b.content?.transactions?.customer_name)
    d.customerName = String(b.customerName ?? b.content.transactions.customer_name);
  if (b.content?.transactions?.transactionId) d.providerReference = String(b.content.transactions.transactionId);
  return d;
}

export function createProviderC(cfg: HttpProviderConfig): VtuProvider {
  const { call, read: readCall, outcome } = providerClient('c', cfg, () => ({ 'api-key': cfg.key, 'secret-key': cfg.secret ?? '' }));

  function payBody(req: PurchaseRequest) {
    const base = { request_id: req.requestId, billersCode: req.recipient, amount: naira(req.wholesale), phone: req.phone ?? req.recipient };
    switch (req.service) {
      case 'airtime':
        return { ...base, serviceID: toNetworkService(req.network!) };
      case 'data':
        return { ...base, serviceID: `${toNetworkService(req.network!)}-data`, variation_code: req.variation };
      case 'electricity':
        return { ...base, serviceID: `${req.product}-electric`, variation_code: req.meterType };
      case 'cable':
        return { ...base, serviceID: req.product, variation_code: req.variation, subscription_type: 'change' };
      default:
        throw new ProviderError('c', `provider c does not sell ${req.service}`, 'refused');
    }
  }

  return {
    id: 'c',
    async catalogue(kind: CatalogueKind, arg?: string): Promise<CatalogueEntry[]> {
      const services = async (identifier: string) => {
        const b = await readCall('GET', `/api/services?identifier=${encodeURIComponent(identifier)}`);
        if (!Array.isArray(b.content)) throw new ProviderError('c', 'provider c: services list missing', 'malformed');
        return b.content as any[];
      };
      switch (kind) {
        case 'airtime_networks':
          return (await services('airtime')).map((s) => ({
            code: fromNetworkService(String(s.serviceID)),
            name: String(s.name),
            price: null,
            minAmount: koboOf(s.minimium_amount ?? s.minimum_amount) ?? undefined,
            maxAmount: koboOf(s.maximum_amount) ?? undefined,
          }));
        case 'cable_providers':
          return (await services('tv-subscription')).map((s) => ({ code: String(s.serviceID), name: String(s.name), price: null }));
        case 'electricity_discos':
          return (await services('electricity-bill')).map((s) => ({
            code: String(s.serviceID).replace(/-electric$/, ''),
            name: String(s.name),
            price: null,
          }));
        case 'cable_plans': {
          const b = await readCall('GET', `/api/service-variations?serviceID=${encodeURIComponent(arg ?? '')}`);
          const list = b.content?.variations ?? b.content?.varations;
          if (!Array.isArray(list)) throw new ProviderError('c', 'provider c: variations missing', 'malformed');
          return list.map((v: any) => ({ code: String(v.variation_code), name: String(v.name), price: koboOf(v.variation_amount) }));
        }
        default:
          throw new ProviderError('c', `provider c has no ${kind} catalogue`, 'refused');
      }
    },
    async verify(kind, input) {
      const serviceID = kind === 'electricity' ? `${input.product}-electric` : input.product;
      const b = await readCall('POST', '/api/merchant-verify', { billersCode: input.account, serviceID, type: input.meterType });
      const c = b.content ?? {};
      if (String(b.code) !== '000' || c.error || !c.Customer_Name)
        return { found: false, message: String(c.error ?? b.response_description ?? 'not found') };
      return { found: true, customerName: String(c.Customer_Name), address: c.Address ? String(c.Address) : undefined };
    },
    async purchase(req) {
      let body;
      try {
        body = payBody(req);
      } catch (err) {
        return { status: 'failed', message: (err as Error).message };
      }
      return outcome(() => call('POST', '/api/pay', body), vtpassOutcome);
    },
    async requery(requestId) {
      return outcome(() => call('POST', '/api/requery', { request_id: requestId }), vtpassOutcome, 'requery');
    },
    async balance() {
      const b = await readCall('GET', '/api/balance');
      const v = koboOf(b.contents?.balance);
      if (v === null) throw new ProviderError('c', 'provider c: balance missing', 'malformed');
      return v;
    },
    async fund(amount, reference) {
      const b = await readCall('POST', '/api/fund', { amount: naira(amount), reference });
      const v = koboOf(b.contents?.balance);
      if (v === null) throw new ProviderError('c', 'provider c: balance missing after funding', 'malformed');
      return v;
    },
  };
}
