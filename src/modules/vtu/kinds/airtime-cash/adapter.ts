import { createHmac, timingSafeEqual } from 'node:crypto';
import { UpstreamTimeout } from '../../../../providers/http-client.js';
import { koboOf, providerClient, type ProviderAnswer, type VtuTransport } from '../../../../providers/vtu/transport.js';
import { ProviderError } from '../../../../providers/vtu/types.js';
import type { AirtimeCashProviderId } from './routing.js';

/**
 * Provider C's airtime-to-cash protocol, in the VTpass style of its purchases (providers/vtu/c.ts):
 * POST /api/airtime-cash/request {request_id, serviceID, phone, amount} answers code 000 with the receiving number,
 * the provider's transactionId and status "awaiting", or 016 (refused); POST /api/airtime-cash/requery {request_id}
 * answers the request's status (awaiting, received with amount_received and amount_settled, expired, failed) or
 * 015 (unknown request id). The provider also posts the same status to our webhook, signed with HMAC-SHA512 of the
 * raw body with the secret key (header x-provider-signature). Amounts cross this boundary as kobo.
 */
export type RequestOutcome =
  | { status: 'accepted'; receivingNumber: string; providerReference?: string }
  | { status: 'failed'; message: string }
  | { status: 'unknown'; message: string };

/** What the provider says of a request: only `received` moves money, and only once per request. */
export type ReceiptStatus =
  | { status: 'received'; amountReceived: bigint; settled?: bigint; providerReference?: string }
  | { status: 'awaiting' | 'expired' | 'not_found' | 'unknown'; message?: string }
  | { status: 'failed'; message: string };

export interface AirtimeCashProvider {
  request(r: { requestId: string; network: string; sender: string; amount: bigint }): Promise<RequestOutcome>;
  requery(requestId: string): Promise<ReceiptStatus>;
  /** A webhook's body, read only once its signature over the raw bytes is right. */
  verifyWebhook(raw: Buffer, signature: string | undefined): { requestId: string; receipt: ReceiptStatus } | 'unsigned' | 'malformed';
}

const serviceOf = (network: string) => (network === '9mobile' ? 'etisalat' : network);
const naira = (kobo: bigint) => Number(kobo) / 100;

/** The status part of a requery answer or a webhook body (`content` of the former, the body itself for the latter). */
export function receiptOf(c: any): ReceiptStatus {
  const st = String(c?.status ?? '').toLowerCase();
  const providerReference = c?.transactionId ? String(c.transactionId) : undefined;
  switch (st) {
    case 'received': {
      const amountReceived = koboOf(c.amount_received);
      if (amountReceived === null || amountReceived <= 0n) return { status: 'unknown', message: 'received without an amount' };
      const settled = koboOf(c.amount_settled);
      return { status: 'received', amountReceived, ...(settled !== null && settled >= 0n ? { settled } : {}), providerReference };
    }
    case 'awaiting':
    case 'pending':
      return { status: 'awaiting' };
    case 'expired':
      return { status: 'expired' };
    case 'failed':
      return { status: 'failed', message: String(c?.message ?? 'The provider closed the request') };
    default:
      return { status: 'unknown', message: `unexpected status ${st || '(none)'}` };
  }
}

function requeryOutcome(res: ProviderAnswer): ReceiptStatus {
  const b = res.body;
  if (res.status >= 400 || !b || typeof b !== 'object') return { status: 'unknown', message: `provider answered HTTP ${res.status}` };
  const code = String(b.code ?? '');
  if (code === '015') return { status: 'not_found' };
  if (code !== '000') return { status: 'unknown', message: String(b.response_description ?? `unexpected code ${code || '(none)'}`) };
  return receiptOf(b.content);
}

function requestOutcome(res: ProviderAnswer): RequestOutcome {
  const b = res.body;
  // Refused at the door (credentials, arguments): nothing was taken, a definite failure.
  if (res.status === 401 || res.status === 403) return { status: 'failed', message: 'The provider refused our credentials' };
  if (res.status >= 500 || !b || typeof b !== 'object') return { status: 'unknown', message: `provider answered HTTP ${res.status}` };
  const code = String(b.code ?? '');
  const message = typeof b.response_description === 'string' ? b.response_description : 'Refused by the provider';
  if (code === '016' || code === '011') return { status: 'failed', message };
  const c = b.content ?? {};
  if (code === '000' && typeof c.receiving_number === 'string' && /^0\d{10}$/.test(c.receiving_number))
    return {
      status: 'accepted',
      receivingNumber: c.receiving_number,
      providerReference: c.transactionId ? String(c.transactionId) : undefined,
    };
  return { status: 'unknown', message: `unexpected answer (code ${code || 'none'})` };
}

export function createAirtimeCashProviderC(cfg: {
  baseUrl: string;
  key: string;
  secret?: string;
  timeoutMs: number;
  transport: VtuTransport;
}): AirtimeCashProvider {
  const { call } = providerClient('c', cfg, () => ({ 'api-key': cfg.key, 'secret-key': cfg.secret ?? '' }));
  /** A timeout or an unreachable provider is "unknown": we cannot tell, so nothing is decided on it. */
  async function ask<T>(
    send: () => Promise<ProviderAnswer>,
    parse: (res: ProviderAnswer) => T,
  ): Promise<T | { status: 'unknown'; message: string }> {
    try {
      return parse(await send());
    } catch (err) {
      if (err instanceof UpstreamTimeout || err instanceof ProviderError) return { status: 'unknown', message: err.message };
      throw err;
    }
  }
  return {
    request: (r) =>
      ask(
        () =>
          call('POST', '/api/airtime-cash/request', {
            request_id: r.requestId,
            serviceID: serviceOf(r.network),
            phone: r.sender,
            amount: naira(r.amount),
          }),
        requestOutcome,
      ),
    requery: (requestId) => ask(() => call('POST', '/api/airtime-cash/requery', { request_id: requestId }), requeryOutcome),
    verifyWebhook(raw, signature) {
      if (!signature || !cfg.secret) return 'unsigned';
      const expected = Buffer.from(createHmac('sha512', cfg.secret).update(raw).digest('hex'));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'unsigned';
      let b: any;
      try {
        b = JSON.parse(raw.toString('utf8'));
      } catch {
        return 'malformed';
      }
      if (!b || typeof b !== 'object' || typeof b.request_id !== 'string' || !b.request_id || b.request_id.length > 100) return 'malformed';
      return { requestId: b.request_id, receipt: receiptOf(b) };
    },
  };
}

/** Each provider's airtime-to-cash adapter: the providers VTU_ROUTING's airtime_cash may name (routing.ts). */
export const AIRTIME_CASH_ADAPTERS: Record<AirtimeCashProviderId, typeof createAirtimeCashProviderC> = {
  c: createAirtimeCashProviderC,
};

/** The webhook signature provider C sends (and the simulator and tests make). */
export const signAirtimeCashWebhook = (secret: string, body: string) => createHmac('sha512', secret).update(body).digest('hex');
