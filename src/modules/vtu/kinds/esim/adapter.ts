import { koboOf } from '../../../../providers/vtu/transport.js';
import { vtpassOutcome } from '../../../../providers/vtu/vtpass.js';
import {
  ProviderError,
  type CatalogueEntry,
  type DeliveryDetails,
  type Outcome,
  type Phase,
  type PurchaseRequest,
  type VtuProvider,
} from '../../../../providers/vtu/types.js';
import type { KindAdapter } from '../kind.js';

/**
 * Travel eSIMs at provider C (VTpass-style protocol, docs/design.md §11): destinations are the services of identifier
 * `esim`, plans the variations of serviceID `esim` (with `region`, `data_mb`, `validity_days`). A purchase is
 * POST /api/pay {serviceID: esim, billersCode: the buyer's phone, variation_code}; a top-up
 * {serviceID: esim-topup, billersCode: ICCID, phone, variation_code}. A delivered answer carries
 * `esim: {iccid, activation_code, smdp_address, matching_id}`; GET /api/esim/usage?iccid= reports usage.
 */
export interface EsimPlanEntry extends CatalogueEntry {
  /** Destination code (gb, europe...). */
  region: string;
  dataMb: number;
  validityDays: number;
}

export interface EsimUsage {
  iccid: string;
  status: 'not_installed' | 'active' | 'depleted' | 'expired';
  dataTotalMb: number;
  dataUsedMb: number;
  expiresAt: string;
}

/** What a delivered eSIM (or top-up) hands over, kept in the transaction's details. */
export interface EsimDetails extends DeliveryDetails {
  iccid?: string;
  activationCode?: string;
  smdpAddress?: string;
  matchingId?: string;
  dataMb?: number;
  validityDays?: number;
  region?: string;
}

export interface EsimAdapter extends KindAdapter {
  /** Usage of an issued eSIM; null when the provider does not know the ICCID. */
  usage(iccid: string): Promise<EsimUsage | null>;
}

/** The VTpass answer with the eSIM's facts added to a delivery. */
export function esimOutcome(res: { status: number; body: any }, phase: Phase = 'purchase'): Outcome {
  const out = vtpassOutcome(res, phase);
  const e = res.body?.esim;
  if (out.status !== 'delivered') return out;
  if (!e || typeof e !== 'object' || typeof e.iccid !== 'string') {
    // Delivered without the ICCID is an answer we cannot use: ask again (the requery carries it).
    return { status: 'unknown', message: 'provider c reported the eSIM delivered without its ICCID' };
  }
  const d: EsimDetails = { ...out.details, iccid: e.iccid };
  if (typeof e.activation_code === 'string') d.activationCode = e.activation_code;
  if (typeof e.smdp_address === 'string') d.smdpAddress = e.smdp_address;
  if (typeof e.matching_id === 'string') d.matchingId = e.matching_id;
  if (Number.isFinite(Number(e.data_mb))) d.dataMb = Number(e.data_mb);
  if (Number.isFinite(Number(e.validity_days))) d.validityDays = Number(e.validity_days);
  if (typeof e.region === 'string') d.region = e.region;
  return { ...out, details: d };
}

const USAGE_STATUSES = new Set(['not_installed', 'active', 'depleted', 'expired']);
const naira = (kobo: bigint) => Number(kobo) / 100;

export function esimAdapterC(p: VtuProvider): EsimAdapter {
  const c = p.client;
  return {
    async catalogue(list, arg) {
      if (list === 'esim_regions') {
        const b = await c.read('GET', '/api/services?identifier=esim');
        if (!Array.isArray(b.content)) throw new ProviderError(p.id, `provider ${p.id}: eSIM destinations missing`, 'malformed');
        return b.content.map((r: any) => ({
          code: String(r.serviceID),
          name: String(r.name),
          price: null,
          planType: String(r.kind ?? 'country'),
        }));
      }
      if (list === 'esim_plans') {
        const b = await c.read('GET', `/api/service-variations?serviceID=esim&region=${encodeURIComponent(arg ?? '')}`);
        const items = b.content?.variations;
        if (!Array.isArray(items)) throw new ProviderError(p.id, `provider ${p.id}: eSIM plans missing`, 'malformed');
        return items
          .filter((v: any) => !arg || String(v.region) === arg)
          .map((v: any): EsimPlanEntry => ({
            code: String(v.variation_code),
            name: String(v.name),
            price: koboOf(v.variation_amount),
            region: String(v.region),
            dataMb: Number(v.data_mb),
            validityDays: Number(v.validity_days),
            validity: `${Number(v.validity_days)} days`,
          }));
      }
      throw new ProviderError(p.id, `provider ${p.id} has no ${list} list`, 'refused');
    },
    async purchase(req: PurchaseRequest) {
      const topup = req.inputs?.topup === true;
      const body = {
        request_id: req.requestId,
        serviceID: topup ? 'esim-topup' : 'esim',
        billersCode: req.recipient,
        variation_code: req.variation ?? req.product,
        amount: naira(req.wholesale),
        phone: req.phone ?? req.recipient,
      };
      return c.outcome(() => c.call('POST', '/api/pay', body), esimOutcome);
    },
    requery: (requestId) => c.outcome(() => c.call('POST', '/api/requery', { request_id: requestId }), esimOutcome, 'requery'),
    async usage(iccid) {
      const b = await c.read('GET', `/api/esim/usage?iccid=${encodeURIComponent(iccid)}`);
      if (String(b.code) === '012') return null;
      const u = b.content;
      if (String(b.code) !== '000' || !u || !USAGE_STATUSES.has(u.status))
        throw new ProviderError(p.id, `provider ${p.id}: eSIM usage answer is malformed`, 'malformed');
      return {
        iccid: String(u.iccid),
        status: u.status,
        dataTotalMb: Number(u.data_total_mb),
        dataUsedMb: Number(u.data_used_mb),
        expiresAt: String(u.expires_at),
      };
    },
  };
}
