import { koboOf, providerClient } from './transport.js';
import type { HttpProviderConfig } from './transport.js';
import {
  ProviderError,
  type CatalogueEntry,
  type Outcome,
  type Phase,
  type ProviderId,
  type PurchaseRequest,
  type VtuProvider,
} from './types.js';

/**
 * The SME-data protocol spoken by providers A and B (docs/design.md §11): `Authorization: Token <key>`,
 * GET /api/data/plans, POST /api/data/ {network, mobile_number, plan, Ported_number, ident}, and a status query
 * by our ident: GET /api/data/query?ident=. Status values: successful, failed, processing/pending.
 * Network ids follow the usual SME-API numbering: 1 MTN, 2 GLO, 3 9MOBILE, 4 AIRTEL.
 */
export const SME_NETWORK_IDS: Record<string, number> = { mtn: 1, glo: 2, '9mobile': 3, airtel: 4 };
const NETWORK_BY_ID: Record<number, string> = { 1: 'mtn', 2: 'glo', 3: '9mobile', 4: 'airtel' };

/** Provider-independent plan key: network-type-size-validity, e.g. mtn-sme-1gb-30d. */
export function dataPlanKey(network: string, planType: string, size: string, validity: string): string {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/\.0(?=\s*[a-z])/g, '')
      .replace(/days?/g, 'd')
      .replace(/[^a-z0-9.]+/g, '');
  return `${network}-${norm(planType)}-${norm(size)}-${norm(validity)}`;
}

export function smeOutcome(res: { status: number; body: any }, phase: Phase = 'purchase'): Outcome {
  const b = res.body;
  if (res.status >= 500 || !b || typeof b !== 'object') return { status: 'unknown', message: `provider answered HTTP ${res.status}` };
  if (res.status === 404) return { status: 'not_found', message: typeof b.detail === 'string' ? b.detail : 'not found' };
  if (res.status >= 400 && phase === 'requery') return { status: 'unknown', message: `requery answered HTTP ${res.status}` };
  if (res.status >= 400) {
    const msg = Array.isArray(b.error) ? b.error.join('; ') : String(b.error ?? b.detail ?? b.api_response ?? `HTTP ${res.status}`);
    if (/insufficient balance/i.test(msg)) return { status: 'low_float', message: msg };
    // 4xx: the request was refused before it was accepted, a definite non-delivery.
    return { status: 'failed', message: msg };
  }
  const st = String(b.Status ?? b.status ?? '').toLowerCase();
  const message = b.api_response ? String(b.api_response) : undefined;
  if (st === 'successful' || st === 'success')
    return { status: 'delivered', message, details: { providerReference: b.id !== undefined ? String(b.id) : undefined } };
  if (st === 'failed') return { status: 'failed', message: message ?? 'Transaction failed' };
  if (st === 'processing' || st === 'pending') return { status: 'pending', message };
  return { status: 'unknown', message: `unexpected status ${st || '(none)'}` };
}

export function createSmeDataProvider(id: ProviderId, cfg: HttpProviderConfig): VtuProvider {
  const client = providerClient(id, cfg, () => ({ authorization: `Token ${cfg.key}` }));
  return {
    id,
    client,
    async requery(requestId) {
      return client.outcome(() => client.call('GET', `/api/data/query?ident=${encodeURIComponent(requestId)}`), smeOutcome, 'requery');
    },
    async balance() {
      const b = await client.read('GET', '/api/user/');
      const v = koboOf(b.user?.wallet_balance);
      if (v === null) throw new ProviderError(id, `provider ${id}: balance missing`, 'malformed');
      return v;
    },
    async fund(amount, reference) {
      const b = await client.read('POST', '/api/fund', { amount: Number(amount) / 100, reference });
      const v = koboOf(b.user?.wallet_balance);
      if (v === null) throw new ProviderError(id, `provider ${id}: balance missing after funding`, 'malformed');
      return v;
    },
  };
}

/** GET /api/data/plans: every data plan, keyed across providers (dataPlanKey). */
export async function smeDataPlans(p: VtuProvider): Promise<CatalogueEntry[]> {
  const b = await p.client.read('GET', '/api/data/plans');
  if (!Array.isArray(b.plans)) throw new ProviderError(p.id, `provider ${p.id}: plans missing`, 'malformed');
  const out: CatalogueEntry[] = [];
  for (const plan of b.plans) {
    const network = NETWORK_BY_ID[Number(plan.network)];
    const price = koboOf(plan.plan_amount);
    if (!network || price === null) continue;
    const planType = String(plan.plan_type).toUpperCase();
    out.push({
      code: String(plan.id),
      name: `${String(plan.plan)} ${planType}`,
      price,
      network,
      planType,
      validity: String(plan.month_validate),
      key: dataPlanKey(network, planType, String(plan.plan), String(plan.month_validate)),
    });
  }
  return out;
}

/** POST /api/data/: a data plan (`req.variation`, the provider's plan id) for a phone on a network. */
export function smeDataPurchase(p: VtuProvider, req: PurchaseRequest): Promise<Outcome> {
  return p.client.outcome(
    () =>
      p.client.call('POST', '/api/data/', {
        network: SME_NETWORK_IDS[req.network ?? ''] ?? 0,
        mobile_number: req.recipient,
        plan: Number(req.variation),
        Ported_number: true,
        ident: req.requestId,
      }),
    smeOutcome,
  );
}
