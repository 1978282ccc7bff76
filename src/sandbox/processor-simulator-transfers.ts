import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one } from '../db/client.js';
import { AppError, parseInput } from '../kernel/errors.js';
import { randomToken } from '../lib/crypto.js';
import { BANKS, bankByCode } from '../providers/identity.js';
import { signProcessorPayload } from '../providers/processor.js';
import { SIMULATOR_API_PREFIX, apiError, authorised, type ProcessorSim } from './processor-simulator-state.js';

/**
 * The sandbox processor's transfer API (issue 43), Paystack's shapes: `GET /bank`, `GET /bank/resolve`,
 * `POST /transferrecipient`, `POST /transfer`, `GET /transfer/verify/:reference`, and the `transfer.success`,
 * `transfer.failed` and `transfer.reversed` webhooks. The account number's last four digits choose the outcome
 * (docs/sandbox.md): `0000` fails name enquiry, `1111` the transfer fails, `2222` it stays pending until
 * `POST /sandbox/processor/transfer` ends it; anything else is paid at once. One transfer per reference: a repeated
 * reference answers the transfer it already made.
 */
const FIRST = ['ADA', 'EMEKA', 'FATIMA', 'TUNDE', 'NGOZI', 'IBRAHIM', 'BISI', 'CHINEDU', 'AISHA', 'SEGUN'];
const LAST = ['OKAFOR', 'BELLO', 'ADEYEMI', 'EZE', 'MUSA', 'OKONKWO', 'ABUBAKAR', 'OLAWALE', 'NWOSU', 'DANJUMA'];

type SimTransfer = {
  reference: string;
  transfer_code: string;
  account_number: string;
  account_name: string;
  amount: string;
  status: string;
};
const TRANSFER_COLUMNS = sql.raw('reference, transfer_code, account_number, account_name, amount::text AS amount, status');

/** The account's name: a name registered with POST /sandbox/banks/accounts, else one drawn from its digits. */
async function accountName(sim: ProcessorSim, bankCode: string, accountNumber: string): Promise<string | null> {
  if (accountNumber.endsWith('0000') || !bankByCode(bankCode)) return null;
  const registered = await sim.services.identityLookups.resolveAccount(bankCode, accountNumber);
  if (registered.found && registered.accountName) return registered.accountName.toUpperCase();
  return `${FIRST[Number(accountNumber[7])]} ${LAST[Number(accountNumber[8])]}`;
}

const transferData = (t: SimTransfer) => ({
  reference: t.reference,
  transfer_code: t.transfer_code,
  amount: Number(t.amount),
  currency: 'NGN',
  status: t.status,
  reason: 'Wallet withdrawal',
  gateway_response: t.status === 'failed' ? 'Beneficiary bank unavailable' : null,
  recipient: { details: { account_number: t.account_number, account_name: t.account_name } },
});

/** Posts a transfer event to the service's webhook, signed like every processor webhook; a failed delivery is reported. */
async function deliver(sim: ProcessorSim, t: SimTransfer) {
  const event = t.status === 'success' ? 'transfer.success' : t.status === 'reversed' ? 'transfer.reversed' : 'transfer.failed';
  const body = JSON.stringify({ event, data: transferData(t) });
  try {
    const res = await sim.services.upstream.send(sim.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-processor-signature': signProcessorPayload(sim.secret, body) },
      body,
      timeoutMs: 10_000,
    });
    return { delivered: res.status === 200, status: res.status };
  } catch (err) {
    sim.services.log.warn({ err: (err as Error).message, reference: t.reference }, 'sandbox processor: transfer webhook failed');
    return { delivered: false, status: null };
  }
}

type Route = (sim: ProcessorSim, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const resolve: Route = async (sim, req, reply) => {
  const q = z.object({ account_number: z.string().regex(/^\d{10}$/), bank_code: z.string() }).safeParse(req.query);
  if (!q.success) return apiError(reply, 422, 'Invalid account number or bank code');
  const name = await accountName(sim, q.data.bank_code, q.data.account_number);
  if (!name) return apiError(reply, 422, 'Could not resolve account name. Check parameters or try again.');
  return {
    status: true,
    message: 'Account number resolved',
    data: { account_number: q.data.account_number, account_name: name, bank_id: 1 },
  };
};

const recipientInput = z.object({
  type: z.literal('nuban'),
  name: z.string().min(1),
  account_number: z.string().regex(/^\d{10}$/),
  bank_code: z.string(),
});

const recipient: Route = async (sim, req, reply) => {
  const b = recipientInput.safeParse(req.body);
  if (!b.success) return apiError(reply, 400, 'Invalid recipient');
  if (!(await accountName(sim, b.data.bank_code, b.data.account_number))) return apiError(reply, 422, 'Cannot resolve account');
  // The code names the account, so the transfer finds it without a table of recipients.
  return {
    status: true,
    message: 'Transfer recipient created',
    data: { recipient_code: `RCP_${b.data.bank_code}_${b.data.account_number}`, name: b.data.name },
  };
};

const transferInput = z.object({
  amount: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
  recipient: z.string().regex(/^RCP_\d{3,6}_\d{10}$/),
  reference: z.string().min(1).max(100),
});

const transfer: Route = async (sim, req, reply) => {
  const b = transferInput.safeParse(req.body);
  if (!b.success) return apiError(reply, 400, 'Invalid transfer');
  const [, bankCode, accountNumber] = b.data.recipient.split('_');
  const name = (await accountName(sim, bankCode, accountNumber)) ?? 'UNKNOWN';
  const status = accountNumber.endsWith('1111') ? 'failed' : accountNumber.endsWith('2222') ? 'pending' : 'success';
  const now = sim.clock.now();
  const made = await one<SimTransfer>(
    sim.db,
    sql`INSERT INTO sandbox_processor_transfers (reference, transfer_code, recipient_code, bank_code, account_number, account_name, amount, status, created_at, updated_at)
        VALUES (${b.data.reference}, ${`TRF_${randomToken(10).toLowerCase()}`}, ${b.data.recipient}, ${bankCode}, ${accountNumber}, ${name}, ${BigInt(b.data.amount)}, ${status}, ${now}, ${now})
        ON CONFLICT (reference) DO NOTHING RETURNING ${TRANSFER_COLUMNS}`,
  );
  const t =
    made ??
    (await one<SimTransfer>(
      sim.db,
      sql`SELECT ${TRANSFER_COLUMNS} FROM sandbox_processor_transfers WHERE reference = ${b.data.reference}`,
    ))!;
  // A final outcome is also announced by webhook, as the processor does.
  if (made && t.status !== 'pending') await deliver(sim, t);
  return {
    status: true,
    message: t.status === 'pending' ? 'Transfer is being processed' : 'Transfer has been queued',
    data: transferData(t),
  };
};

const verifyTransfer: Route = async (sim, req, reply) => {
  const { reference } = req.params as { reference: string };
  const t = await one<SimTransfer>(sim.db, sql`SELECT ${TRANSFER_COLUMNS} FROM sandbox_processor_transfers WHERE reference = ${reference}`);
  if (!t) return apiError(reply, 404, 'Transfer not found');
  return { status: true, message: 'Transfer retrieved', data: transferData(t) };
};

const outcomeInput = z
  .object({
    reference: z.string().min(1, 'reference is required').max(100),
    outcome: z.enum(['success', 'failed', 'reversed']),
    webhook: z.boolean().default(true),
  })
  .strict();

/** Control: ends a pending transfer (success or failed), or reverses a paid one, and sends its webhook. */
async function endTransfer(sim: ProcessorSim, req: FastifyRequest) {
  const b = parseInput(outcomeInput, req.body);
  const from = b.outcome === 'reversed' ? 'success' : 'pending';
  const t = await one<SimTransfer>(
    sim.db,
    sql`UPDATE sandbox_processor_transfers SET status = ${b.outcome}, updated_at = ${sim.clock.now()}
        WHERE reference = ${b.reference} AND status = ${from} RETURNING ${TRANSFER_COLUMNS}`,
  );
  if (!t) throw new AppError('CONFLICT', `No ${from} sandbox transfer ${b.reference}`);
  const webhook = b.webhook ? await deliver(sim, t) : { delivered: false, status: null };
  return { ok: true, reference: t.reference, status: t.status, webhook };
}

export function registerProcessorTransfers(scope: FastifyInstance, sim: ProcessorSim) {
  const keyed = (route: Route) => async (req: FastifyRequest, reply: FastifyReply) =>
    authorised(sim, req) ? route(sim, req, reply) : apiError(reply, 401, 'Invalid key');
  scope.get(
    `${SIMULATOR_API_PREFIX}/bank`,
    keyed(async () => ({
      status: true,
      message: 'Banks retrieved',
      data: BANKS.map((b) => ({ name: b.name, code: b.code, currency: 'NGN', type: 'nuban' })),
    })),
  );
  scope.get(`${SIMULATOR_API_PREFIX}/bank/resolve`, keyed(resolve));
  scope.post(`${SIMULATOR_API_PREFIX}/transferrecipient`, keyed(recipient));
  scope.post(`${SIMULATOR_API_PREFIX}/transfer`, keyed(transfer));
  scope.get(`${SIMULATOR_API_PREFIX}/transfer/verify/:reference`, keyed(verifyTransfer));
  scope.post('/sandbox/processor/transfer', (req) => endTransfer(sim, req));
}
