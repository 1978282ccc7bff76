import type { HttpTransport } from './http-transport.js';

/**
 * The e-PIN (recharge card) seller's adapter (issue 45, modules/epins): a batch of airtime PINs of one network and
 * face value, bought by our request id and requeried by it. Amounts crossing this boundary are kobo; the seller
 * speaks naira. Switching to a real seller is configuration (EPIN_PROVIDER_URL, EPIN_PROVIDER_KEY).
 *
 * The protocol: `GET /prices` -> `{prices: [{network, denomination, unitPrice}]}`; `POST /batches` with
 * `{requestId, network, denomination, quantity}` and `GET /batches/<requestId>` -> `{requestId, status, pins:
 * [{pin, serial}]}`, where status is `delivered`, `partial` (only the PINs listed were delivered; the rest never will
 * be), `failed` (none) or `pending` (ask again); 404 on a requery: the seller never saw the request.
 */
export interface EpinCard {
  pin: string;
  serial: string;
}

/** A batch as the seller answers it; `unknown` when the answer says nothing we can rely on (ask again later). */
export type EpinAnswer =
  | { status: 'delivered' | 'partial'; pins: EpinCard[] }
  | { status: 'failed'; pins: []; reason: string }
  | { status: 'pending' | 'unknown'; pins: [] };

export interface EpinProvider {
  /** Wholesale price of one card, kobo, by `${network}:${denomination naira}`. */
  prices(): Promise<Map<string, bigint>>;
  buy(req: { requestId: string; network: string; denomination: number; quantity: number }): Promise<EpinAnswer>;
  requery(requestId: string): Promise<EpinAnswer>;
}

export class EpinProviderError extends Error {}

const unknown: EpinAnswer = { status: 'unknown', pins: [] };

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The seller's answer to a batch, read strictly: PINs of digits and serials, or nothing we rely on. */
function answerOf(status: number, text: string, quantity?: number): EpinAnswer {
  const body = parse(text);
  if (status >= 500 || !body || typeof body !== 'object') return unknown;
  if (status === 404) return { status: 'failed', pins: [], reason: 'the seller has no such batch' };
  if (body.status === 'failed' || (status >= 400 && status < 500)) {
    return { status: 'failed', pins: [], reason: String(body.message ?? body.reason ?? 'refused by the seller').slice(0, 200) };
  }
  if (body.status === 'pending') return { status: 'pending', pins: [] };
  if (body.status !== 'delivered' && body.status !== 'partial') return unknown;
  if (!Array.isArray(body.pins)) return unknown;
  const pins: EpinCard[] = [];
  for (const p of body.pins) {
    if (
      !p ||
      typeof p.pin !== 'string' ||
      !/^\d{10,20}$/.test(p.pin) ||
      typeof p.serial !== 'string' ||
      !/^[A-Za-z0-9-]{4,40}$/.test(p.serial)
    )
      return unknown;
    pins.push({ pin: p.pin, serial: p.serial });
  }
  if (quantity !== undefined && pins.length > quantity) return unknown;
  return { status: pins.length === 0 ? 'failed' : body.status, pins, reason: 'no PINs delivered' } as EpinAnswer;
}

export function createEpinProvider(cfg: { url: string; key: string }, transport: HttpTransport, timeoutMs: number): EpinProvider {
  const headers = { 'x-api-key': cfg.key, accept: 'application/json' };
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    try {
      return await transport(`${cfg.url}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs,
        upstream: 'epins',
      });
    } catch {
      return null; // unreachable or timed out: the outcome is unknown, never a failure
    }
  };
  return {
    async prices() {
      const r = await send('GET', '/prices');
      const body = r && r.status === 200 ? parse(r.text) : null;
      if (!body || !Array.isArray(body.prices)) throw new EpinProviderError('the e-PIN seller did not answer its prices');
      const out = new Map<string, bigint>();
      for (const p of body.prices) {
        if (typeof p?.network === 'string' && Number.isFinite(p.denomination) && Number.isFinite(p.unitPrice))
          out.set(`${p.network}:${p.denomination}`, BigInt(Math.round(p.unitPrice * 100)));
      }
      return out;
    },
    async buy(req) {
      const r = await send('POST', '/batches', req);
      return r ? answerOf(r.status, r.text, req.quantity) : unknown;
    },
    async requery(requestId) {
      const r = await send('GET', `/batches/${encodeURIComponent(requestId)}`);
      return r ? answerOf(r.status, r.text) : unknown;
    },
  };
}
