import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../kernel/errors.js';
import { safeEqual } from '../lib/crypto.js';
import type { HttpTransport } from './http-transport.js';
import { refusal, request, type ProcessorApi } from './processor-request.js';
import { resolveAccount, startTransfer, verifyTransfer, type TransferAnswer, type TransferRequest } from './processor-transfers.js';

export type { TransferAnswer, TransferRequest, TransferStatus } from './processor-transfers.js';
export { transferStatusOf } from './processor-transfers.js';

/**
 * Payment processor adapter, Paystack-style protocol (docs/design.md §11). Everything here is the real wire shape:
 * `POST /transaction/initialize`, `GET /transaction/verify/:reference`, `POST /customer`,
 * `POST /dedicated_account`, `Authorization: Bearer <secret key>`, amounts in kobo, and webhooks signed with
 * HMAC-SHA512 of the raw body under the same secret. The sandbox simulator speaks the same protocol, so
 * pointing PROCESSOR_BASE_URL at a real processor is a configuration change.
 */
export type ChargeStatus = 'success' | 'failed' | 'abandoned' | 'pending' | 'not_found';

export interface InitializeInput {
  email: string;
  amount: bigint;
  reference: string;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

export interface VerifiedCharge {
  reference: string;
  status: ChargeStatus;
  /** Kobo actually paid (meaningful when status is success). */
  amount: bigint;
  currency: string;
  channel: string | null;
  paidAt: Date | null;
}

export interface DedicatedAccount {
  customerCode: string;
  accountNumber: string;
  accountName: string;
  bankName: string;
  providerId: string | null;
}

/** A charge event as the webhook delivers it, normalised. */
export interface ChargeEvent {
  event: string;
  reference: string | null;
  status: string | null;
  amount: bigint | null;
  currency: string;
  channel: string | null;
  paidAt: Date | null;
  customerCode: string | null;
  customerEmail: string | null;
  /** For channel dedicated_nuban: the virtual account that received the transfer. */
  receiverAccountNumber: string | null;
}

export interface ProcessorAdapter {
  readonly id: string;
  initialize(input: InitializeInput): Promise<{ authorizationUrl: string; accessCode: string; reference: string }>;
  verify(reference: string): Promise<VerifiedCharge>;
  createDedicatedAccount(input: { email: string; firstName: string; lastName: string; phone?: string | null }): Promise<DedicatedAccount>;
  /** Successful charges paid in [from, to) (`GET /transaction?status=success&from&to`, every page). */
  listSuccessfulCharges(from: Date, to: Date): Promise<ChargeEvent[]>;
  /** Constant-time check of `x-processor-signature` over the exact raw bytes received. */
  verifySignature(rawBody: Buffer, signature: string | undefined): boolean;
  parseEvent(payload: unknown): ChargeEvent;
  /** Name enquiry (issue 43): the account's name at the bank, or found false. */
  resolveAccount(bankCode: string, accountNumber: string): Promise<{ found: boolean; accountName: string | null }>;
  /** A transfer to a bank account from the processor balance, under our reference (processor-transfers.ts). */
  startTransfer(t: TransferRequest): Promise<TransferAnswer>;
  verifyTransfer(reference: string): Promise<TransferAnswer | { status: 'not_found' }>;
}

export function signProcessorPayload(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha512', secret).update(rawBody).digest('hex');
}

const koboField = z.union([z.number(), z.string().regex(/^\d+$/)]).transform((v) => BigInt(v));

const verifyData = z.object({
  reference: z.string(),
  status: z.string(),
  amount: koboField,
  currency: z.string().default('NGN'),
  channel: z.string().nullish(),
  paid_at: z.string().nullish(),
});

const eventSchema = z.object({
  event: z.string(),
  data: z
    .object({
      reference: z.string().nullish(),
      status: z.string().nullish(),
      amount: koboField.nullish(),
      currency: z.string().nullish(),
      channel: z.string().nullish(),
      paid_at: z.string().nullish(),
      customer: z.object({ email: z.string().nullish(), customer_code: z.string().nullish() }).partial().nullish(),
      authorization: z.object({ receiver_bank_account_number: z.string().nullish() }).partial().nullish(),
    })
    .passthrough()
    .nullish(),
});

const KNOWN_STATUSES: ChargeStatus[] = ['success', 'failed', 'abandoned', 'pending'];

function toDate(s: string | null | undefined): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function parseChargeEvent(payload: unknown): ChargeEvent {
  const p = eventSchema.safeParse(payload);
  if (!p.success) throw new AppError('VALIDATION_FAILED', 'Webhook body is not a processor event');
  const d = p.data.data ?? {};
  return {
    event: p.data.event,
    reference: d.reference ?? null,
    status: d.status ?? null,
    amount: d.amount ?? null,
    currency: d.currency ?? 'NGN',
    channel: d.channel ?? null,
    paidAt: toDate(d.paid_at),
    customerCode: d.customer?.customer_code ?? null,
    customerEmail: d.customer?.email ?? null,
    receiverAccountNumber: d.authorization?.receiver_bank_account_number ?? null,
  };
}

const initializeData = z.object({ authorization_url: z.string().url(), access_code: z.string(), reference: z.string() });

async function initialize(api: ProcessorApi, input: InitializeInput) {
  const r = await request(api, 'POST', '/transaction/initialize', {
    email: input.email,
    amount: input.amount.toString(),
    reference: input.reference,
    ...(input.callbackUrl ? { callback_url: input.callbackUrl } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
  });
  const data = initializeData.safeParse(r.json?.data);
  if (r.status !== 200 || !r.json?.status || !data.success) throw refusal('refused to start the payment', r);
  return { authorizationUrl: data.data.authorization_url, accessCode: data.data.access_code, reference: data.data.reference };
}

async function verify(api: ProcessorApi, reference: string): Promise<VerifiedCharge> {
  const r = await request(api, 'GET', `/transaction/verify/${encodeURIComponent(reference)}`);
  // Paystack answers an unknown reference with 400/404 and status:false.
  if (!r.json?.status) {
    if (r.status === 400 || r.status === 404)
      return { reference, status: 'not_found', amount: 0n, currency: 'NGN', channel: null, paidAt: null };
    throw refusal(`could not verify ${reference}`, r);
  }
  const data = verifyData.safeParse(r.json.data);
  if (!data.success) throw new AppError('UPSTREAM_ERROR', 'The payment processor answered verify with an unexpected shape');
  const d = data.data;
  // Anything we do not know (ongoing, processing, queued, reversed...) is treated as not yet settled.
  const status: ChargeStatus = (KNOWN_STATUSES as string[]).includes(d.status) ? (d.status as ChargeStatus) : 'pending';
  return {
    reference: d.reference,
    status,
    amount: d.amount,
    currency: d.currency,
    channel: d.channel ?? null,
    paidAt: toDate(d.paid_at),
  };
}

const customerData = z.object({ customer_code: z.string() });
const accountData = z.object({
  account_number: z.string(),
  account_name: z.string(),
  bank: z.object({ name: z.string() }),
  id: z.union([z.string(), z.number()]).nullish(),
});

/** The customer first, then its account (Paystack's two calls). */
async function createDedicatedAccount(
  api: ProcessorApi,
  input: Parameters<ProcessorAdapter['createDedicatedAccount']>[0],
): Promise<DedicatedAccount> {
  const c = await request(api, 'POST', '/customer', {
    email: input.email,
    first_name: input.firstName,
    last_name: input.lastName,
    ...(input.phone ? { phone: input.phone } : {}),
  });
  const customer = customerData.safeParse(c.json?.data);
  if (!c.json?.status || !customer.success) throw refusal('refused the customer', c);
  const a = await request(api, 'POST', '/dedicated_account', { customer: customer.data.customer_code, preferred_bank: 'wema-bank' });
  const acc = accountData.safeParse(a.json?.data);
  if (!a.json?.status || !acc.success) throw refusal('refused the dedicated account', a);
  return {
    customerCode: customer.data.customer_code,
    accountNumber: acc.data.account_number,
    accountName: acc.data.account_name,
    bankName: acc.data.bank.name,
    providerId: acc.data.id == null ? null : String(acc.data.id),
  };
}

async function listSuccessfulCharges(api: ProcessorApi, from: Date, to: Date): Promise<ChargeEvent[]> {
  const out: ChargeEvent[] = [];
  for (let page = 1; page <= 100; page++) {
    const q = new URLSearchParams({
      status: 'success',
      from: from.toISOString(),
      to: to.toISOString(),
      perPage: '100',
      page: String(page),
    });
    const r = await request(api, 'GET', `/transaction?${q}`);
    const list = z.array(z.unknown()).safeParse(r.json?.data);
    if (!r.json?.status || !list.success) throw refusal('could not list transactions', r);
    for (const t of list.data) out.push(parseChargeEvent({ event: 'charge.success', data: t }));
    const meta = z.object({ pageCount: z.number() }).safeParse((r.json as { meta?: unknown }).meta);
    if (!meta.success || page >= meta.data.pageCount || list.data.length === 0) break;
  }
  return out;
}

export function createPaystackStyleAdapter(opts: {
  id: string;
  baseUrl: string;
  secretKey: string;
  transport: HttpTransport;
  timeoutMs?: number;
}): ProcessorAdapter {
  const api: ProcessorApi = {
    id: opts.id,
    base: opts.baseUrl.replace(/\/$/, ''),
    headers: { authorization: `Bearer ${opts.secretKey}`, 'content-type': 'application/json', accept: 'application/json' },
    transport: opts.transport,
    timeoutMs: opts.timeoutMs,
  };
  return {
    id: opts.id,
    initialize: (input) => initialize(api, input),
    verify: (reference) => verify(api, reference),
    createDedicatedAccount: (input) => createDedicatedAccount(api, input),
    listSuccessfulCharges: (from, to) => listSuccessfulCharges(api, from, to),
    verifySignature(rawBody, signature) {
      if (!signature) return false;
      return safeEqual(signProcessorPayload(opts.secretKey, rawBody), signature.trim().toLowerCase());
    },
    parseEvent: parseChargeEvent,
    resolveAccount: (bankCode, accountNumber) => resolveAccount(api, bankCode, accountNumber),
    startTransfer: (t) => startTransfer(api, t),
    verifyTransfer: (reference) => verifyTransfer(api, reference),
  };
}

/** The configured processors by id; `default` is config.processor.default. */
export interface ProcessorRegistry {
  default: ProcessorAdapter;
  get(id: string): ProcessorAdapter | undefined;
  ids(): string[];
}

export function createProcessorRegistry(adapters: ProcessorAdapter[], defaultId: string): ProcessorRegistry {
  const map = new Map(adapters.map((a) => [a.id, a]));
  const def = map.get(defaultId);
  if (!def) throw new Error(`processor: default processor ${defaultId} is not configured`);
  return { default: def, get: (id) => map.get(id), ids: () => [...map.keys()] };
}
