import { koboOf, providerClient, type HttpProviderConfig } from './transport.js';
import {
  ProviderError,
  type DeliveryDetails,
  type Outcome,
  type Phase,
  type ProviderId,
  type PurchaseRequest,
  type VerifyResult,
  type VtuProvider,
} from './types.js';

/**
 * The VTpass-style protocol (docs/design.md §11): POST /api/pay {request_id, serviceID, billersCode,
 * variation_code, amount, phone}, POST /api/requery {request_id}, GET /api/service-variations?serviceID=,
 * GET /api/services?identifier=, POST /api/merchant-verify. Code 000 + content.transactions.status
 * (initiated/pending/delivered), 099 processing, 016 failed, 040 reversed, 014 duplicate request_id,
 * 018 low float, 015 unknown request_id. Only explicit failure codes count as failures: anything unexpected is
 * pending and requeried. What each kind sends (serviceID, variation_code) and which lists it reads is the kind's
 * (src/modules/vtu/kinds/<kind>), through the calls exported here.
 */

/** VTpass names 9mobile by its old name. */
export const toNetworkService = (network: string) => (network === '9mobile' ? 'etisalat' : network);
export const fromNetworkService = (serviceID: string) => (serviceID === 'etisalat' ? '9mobile' : serviceID);
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

/** A VTpass-style provider under the configured id (c in the default routing). */
export function createVtpassProvider(id: ProviderId, cfg: HttpProviderConfig): VtuProvider {
  const client = providerClient(id, cfg, () => ({ 'api-key': cfg.key, 'secret-key': cfg.secret ?? '' }));
  return {
    id,
    client,
    async requery(requestId) {
      return client.outcome(() => client.call('POST', '/api/requery', { request_id: requestId }), vtpassOutcome, 'requery');
    },
    async balance() {
      const b = await client.read('GET', '/api/balance');
      const v = koboOf(b.contents?.balance);
      if (v === null) throw new ProviderError(id, `provider ${id}: balance missing`, 'malformed');
      return v;
    },
    async fund(amount, reference) {
      const b = await client.read('POST', '/api/fund', { amount: naira(amount), reference });
      const v = koboOf(b.contents?.balance);
      if (v === null) throw new ProviderError(id, `provider ${id}: balance missing after funding`, 'malformed');
      return v;
    },
  };
}

/** POST /api/pay: our request id, the account, the wholesale in naira and the phone, with the kind's fields. */
export function vtpassPay(
  p: VtuProvider,
  req: PurchaseRequest,
  fields: { serviceID: string; variation_code?: string; subscription_type?: string } & Record<string, unknown>,
): Promise<Outcome> {
  const body = {
    request_id: req.requestId,
    billersCode: req.recipient,
    amount: naira(req.wholesale),
    phone: req.phone ?? req.recipient,
    ...fields,
  };
  return p.client.outcome(() => p.client.call('POST', '/api/pay', body), vtpassOutcome);
}

/** GET /api/services?identifier=: the services of one category (airtime, tv-subscription, electricity-bill...). */
export async function vtpassServices(p: VtuProvider, identifier: string): Promise<any[]> {
  const b = await p.client.read('GET', `/api/services?identifier=${encodeURIComponent(identifier)}`);
  if (!Array.isArray(b.content)) throw new ProviderError(p.id, `provider ${p.id}: services list missing`, 'malformed');
  return b.content as any[];
}

/** GET /api/service-variations?serviceID=: a service's variations (plans) with their prices in naira. */
export async function vtpassVariations(p: VtuProvider, serviceID: string): Promise<any[]> {
  const b = await p.client.read('GET', `/api/service-variations?serviceID=${encodeURIComponent(serviceID)}`);
  const list = b.content?.variations ?? b.content?.varations;
  if (!Array.isArray(list)) throw new ProviderError(p.id, `provider ${p.id}: variations missing`, 'malformed');
  return list;
}

/** POST /api/merchant-verify: the customer behind an account (smartcard, meter) of a service. */
export async function vtpassVerify(
  p: VtuProvider,
  input: { billersCode: string; serviceID: string; type?: string },
): Promise<VerifyResult> {
  const b = await p.client.read('POST', '/api/merchant-verify', input);
  const c = b.content ?? {};
  if (String(b.code) !== '000' || c.error || !c.Customer_Name)
    return { found: false, message: String(c.error ?? b.response_description ?? 'not found') };
  return { found: true, customerName: String(c.Customer_Name), address: c.Address ? String(c.Address) : undefined };
}
