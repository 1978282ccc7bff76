import { z } from 'zod';
import { AppError } from '../kernel/errors.js';
import { refusal, request, type ProcessorApi } from './processor-request.js';

/**
 * Money out through the processor's transfer API (issue 43), Paystack's shapes: `GET /bank/resolve` (name enquiry),
 * `POST /transferrecipient` (a NUBAN recipient), `POST /transfer` (from the balance, our reference) and
 * `GET /transfer/verify/:reference`. The outcome also arrives as the webhooks `transfer.success`, `transfer.failed`
 * and `transfer.reversed`.
 */
export type TransferStatus = 'success' | 'failed' | 'reversed' | 'pending';

export interface TransferAnswer {
  status: TransferStatus;
  transferCode: string | null;
  /** The processor's words for a failure (null otherwise). */
  reason: string | null;
}

export interface TransferRequest {
  reference: string;
  /** Kobo. */
  amount: bigint;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  reason: string;
}

/** A processor's transfer status in our words: anything not final (otp, queued, processing, ...) is pending. */
export function transferStatusOf(s: string | null | undefined): TransferStatus {
  return s === 'success' || s === 'failed' || s === 'reversed' ? s : s === 'abandoned' || s === 'rejected' ? 'failed' : 'pending';
}

const resolveData = z.object({ account_number: z.string(), account_name: z.string() });

/** Name enquiry: the account's name at the bank, or found false (the processor could not resolve it). */
export async function resolveAccount(api: ProcessorApi, bankCode: string, accountNumber: string) {
  const q = new URLSearchParams({ account_number: accountNumber, bank_code: bankCode });
  const r = await request(api, 'GET', `/bank/resolve?${q}`);
  const data = resolveData.safeParse(r.json?.data);
  if (r.json?.status && data.success) return { found: true as const, accountName: data.data.account_name };
  if (r.status === 400 || r.status === 404 || r.status === 422) return { found: false as const, accountName: null };
  throw refusal('could not resolve the account', r);
}

const recipientData = z.object({ recipient_code: z.string() });
const transferData = z.object({
  reference: z.string().nullish(),
  transfer_code: z.string().nullish(),
  status: z.string(),
  reason: z.string().nullish(),
  gateway_response: z.string().nullish(),
});

const answerOf = (d: z.infer<typeof transferData>): TransferAnswer => {
  const status = transferStatusOf(d.status);
  return { status, transferCode: d.transfer_code ?? null, reason: status === 'failed' ? (d.gateway_response ?? d.reason ?? null) : null };
};

/**
 * The recipient, then the transfer under our reference (the processor keeps one transfer per reference, so a retry
 * after a lost answer answers the same transfer). A refusal the processor states (4xx) is a failed transfer; an
 * unreachable processor or a 5xx is UPSTREAM_ERROR (the job tries again with the same reference).
 */
export async function startTransfer(api: ProcessorApi, t: TransferRequest): Promise<TransferAnswer> {
  const rc = await request(api, 'POST', '/transferrecipient', {
    type: 'nuban',
    name: t.accountName,
    account_number: t.accountNumber,
    bank_code: t.bankCode,
    currency: 'NGN',
  });
  const recipient = recipientData.safeParse(rc.json?.data);
  if (!rc.json?.status || !recipient.success) {
    if (rc.status >= 400 && rc.status < 500)
      return { status: 'failed', transferCode: null, reason: rc.json?.message ?? 'recipient refused' };
    throw refusal('refused the transfer recipient', rc);
  }
  const r = await request(api, 'POST', '/transfer', {
    source: 'balance',
    amount: t.amount.toString(),
    recipient: recipient.data.recipient_code,
    reference: t.reference,
    reason: t.reason,
    currency: 'NGN',
  });
  const data = transferData.safeParse(r.json?.data);
  if (r.json?.status && data.success) return answerOf(data.data);
  if (r.status >= 400 && r.status < 500 && r.status !== 404)
    return { status: 'failed', transferCode: null, reason: r.json?.message ?? 'refused' };
  throw refusal('refused the transfer', r);
}

/** The transfer's status by our reference; not_found when the processor has none under it. */
export async function verifyTransfer(api: ProcessorApi, reference: string): Promise<TransferAnswer | { status: 'not_found' }> {
  const r = await request(api, 'GET', `/transfer/verify/${encodeURIComponent(reference)}`);
  if (!r.json?.status) {
    if (r.status === 400 || r.status === 404) return { status: 'not_found' };
    throw refusal(`could not verify transfer ${reference}`, r);
  }
  const data = transferData.safeParse(r.json.data);
  if (!data.success) throw new AppError('UPSTREAM_ERROR', 'The payment processor answered a transfer verify with an unexpected shape');
  return answerOf(data.data);
}
