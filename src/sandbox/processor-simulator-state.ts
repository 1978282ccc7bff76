import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../db/client.js';
import { AppError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.js';
import { safeEqual } from '../lib/crypto.js';
import { signProcessorPayload } from '../providers/processor.js';
import type { Services } from '../platform/services.js';

/** The sandbox processor's transactions (sandbox_processor_transactions) and what its routes share. */

export const SIMULATOR_API_PREFIX = '/sandbox/processor/api';

/** What the simulator's routes are handed: the database, the clock, the secret key and where webhooks go. */
export interface ProcessorSim {
  db: Db;
  clock: Clock;
  services: Services;
  secret: string;
  publicUrl: string;
  webhookUrl: string;
}

export interface SimTx {
  reference: string;
  access_code: string;
  email: string;
  amount: string;
  amount_paid: string | null;
  currency: string;
  status: string;
  channel: string;
  callback_url: string | null;
  metadata: unknown;
  customer_code: string | null;
  receiver_account_number: string | null;
  paid_at: Date | null;
  created_at: Date;
}

export const TX_COLUMNS = sql.raw(
  `reference, access_code, email, amount::text AS amount, amount_paid::text AS amount_paid, currency, status, channel, callback_url, metadata,
   customer_code, receiver_account_number, paid_at, created_at`,
);

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const apiError = (reply: FastifyReply, status: number, message: string) => reply.status(status).send({ status: false, message });

export const authorised = (sim: ProcessorSim, req: FastifyRequest) => {
  const h = req.headers.authorization;
  return typeof h === 'string' && safeEqual(h, `Bearer ${sim.secret}`);
};

export async function findTx(exec: Executor, where: { reference?: string; accessCode?: string }) {
  if (where.reference !== undefined)
    return one<SimTx>(exec, sql`SELECT ${TX_COLUMNS} FROM sandbox_processor_transactions WHERE reference = ${where.reference}`);
  return one<SimTx>(exec, sql`SELECT ${TX_COLUMNS} FROM sandbox_processor_transactions WHERE access_code = ${where.accessCode!}`);
}

export function chargeData(t: SimTx) {
  return {
    id: Number(BigInt('0x' + Buffer.from(t.reference).toString('hex').slice(0, 12))),
    domain: 'test',
    status: t.status,
    reference: t.reference,
    amount: Number(t.amount_paid ?? t.amount),
    gateway_response: t.status === 'success' ? 'Successful' : t.status === 'failed' ? 'Declined' : 'The transaction was not completed',
    paid_at: t.paid_at ? new Date(t.paid_at).toISOString() : null,
    created_at: new Date(t.created_at).toISOString(),
    channel: t.channel,
    currency: t.currency,
    metadata: t.metadata ?? null,
    customer: { email: t.email, customer_code: t.customer_code },
    authorization:
      t.channel === 'dedicated_nuban'
        ? {
            channel: 'dedicated_nuban',
            receiver_bank_account_number: t.receiver_account_number,
            receiver_bank: 'Wema Bank',
            sender_name: 'SANDBOX SENDER',
            sender_bank: 'Sandbox Bank',
          }
        : { channel: 'card', card_type: 'visa', last4: '4081', bank: 'Sandbox Bank' },
  };
}

/** Sends charge.success for a paid transaction; a failed delivery is reported, not retried (reconciliation heals it). */
export async function deliverWebhook(sim: ProcessorSim, t: SimTx): Promise<{ delivered: boolean; status: number | null }> {
  const body = JSON.stringify({ event: 'charge.success', data: chargeData(t) });
  try {
    const res = await sim.services.upstream.send(sim.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-processor-signature': signProcessorPayload(sim.secret, body) },
      body,
      timeoutMs: 10_000,
    });
    return { delivered: res.status === 200, status: res.status };
  } catch (err) {
    sim.services.log.warn({ err: (err as Error).message, reference: t.reference }, 'sandbox processor: webhook delivery failed');
    return { delivered: false, status: null };
  }
}

/** The customer's action at checkout. Success is final; a failed or abandoned checkout may still be paid. */
export async function act(
  sim: ProcessorSim,
  reference: string,
  outcome: 'success' | 'failed' | 'abandoned',
  opts: { webhook: boolean; amountPaid?: bigint },
) {
  const now = sim.clock.now();
  const t = await one<SimTx>(
    sim.db,
    sql`UPDATE sandbox_processor_transactions
        SET status = ${outcome}, amount_paid = ${outcome === 'success' ? (opts.amountPaid ?? null) : null}, paid_at = ${outcome === 'success' ? now : null}
        WHERE reference = ${reference} AND status <> 'success'
        RETURNING ${TX_COLUMNS}`,
  );
  if (!t) {
    const existing = await findTx(sim.db, { reference });
    if (!existing) throw new AppError('NOT_FOUND', `No sandbox processor transaction ${reference}`);
    throw new AppError('CONFLICT', `Transaction ${reference} is already paid`);
  }
  const webhook = outcome === 'success' && opts.webhook ? await deliverWebhook(sim, t) : { delivered: false, status: null };
  return { transaction: t, webhook };
}

export function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{margin:.25rem;padding:.6rem 1.2rem}</style>
</head><body><h1>Sandbox processor</h1>${body}</body></html>`;
}
