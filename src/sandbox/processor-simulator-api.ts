import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, rows } from '../db/client.js';
import { prefixedId } from '../kernel/ids.js';
import { randomToken } from '../lib/crypto.js';
import {
  SIMULATOR_API_PREFIX,
  TX_COLUMNS,
  apiError,
  authorised,
  chargeData,
  findTx,
  type ProcessorSim,
  type SimTx,
} from './processor-simulator-state.js';

/** The sandbox processor's API, what src/providers/processor.ts calls (Bearer secret key), Paystack's shapes. */

type Route = (sim: ProcessorSim, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const initializeInput = z.object({
  email: z.string().email(),
  amount: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
  reference: z.string().min(1).max(100).optional(),
  callback_url: z.string().url().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const initialize: Route = async ({ db, clock, publicUrl }, req, reply) => {
  const b = initializeInput.safeParse(req.body);
  if (!b.success) return apiError(reply, 400, `Invalid request: ${b.error.issues[0]?.path.join('.')} ${b.error.issues[0]?.message}`);
  const reference = b.data.reference ?? prefixedId('sim', clock.now().getTime());
  const accessCode = randomToken(12);
  const inserted = await one<{ reference: string }>(
    db,
    sql`INSERT INTO sandbox_processor_transactions (reference, access_code, email, amount, status, channel, callback_url, metadata, created_at)
        VALUES (${reference}, ${accessCode}, ${b.data.email.toLowerCase()}, ${BigInt(b.data.amount)}, 'pending', 'card', ${b.data.callback_url ?? null},
                ${b.data.metadata ? JSON.stringify(b.data.metadata) : null}::jsonb, ${clock.now()})
        ON CONFLICT (reference) DO NOTHING RETURNING reference`,
  );
  if (!inserted) return apiError(reply, 400, 'Duplicate Transaction Reference');
  return {
    status: true,
    message: 'Authorization URL created',
    data: { authorization_url: `${publicUrl}/sandbox/processor/checkout/${accessCode}`, access_code: accessCode, reference },
  };
};

const verify: Route = async ({ db }, req, reply) => {
  const { reference } = req.params as { reference: string };
  const t = await findTx(db, { reference });
  if (!t) return apiError(reply, 400, 'Transaction reference not found');
  return { status: true, message: 'Verification successful', data: chargeData(t) };
};

const listInput = z.object({
  status: z.enum(['success', 'failed', 'abandoned', 'pending']).optional(),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  perPage: z.coerce.number().int().min(1).max(100).default(50),
  page: z.coerce.number().int().min(1).default(1),
});

const list: Route = async ({ db }, req, reply) => {
  const q = listInput.safeParse(req.query);
  if (!q.success) return apiError(reply, 400, 'Invalid query');
  const { status, perPage, page } = q.data;
  const from = q.data.from ? new Date(q.data.from) : new Date(0);
  const to = q.data.to ? new Date(q.data.to) : new Date(8.64e15);
  const where = sql`(${status ?? null}::text IS NULL OR status = ${status ?? null}) AND COALESCE(paid_at, created_at) >= ${from} AND COALESCE(paid_at, created_at) < ${to}`;
  const total = Number(
    (await one<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM sandbox_processor_transactions WHERE ${where}`))!.n,
  );
  const found = await rows<SimTx>(
    db,
    sql`SELECT ${TX_COLUMNS} FROM sandbox_processor_transactions WHERE ${where}
        ORDER BY COALESCE(paid_at, created_at), reference LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  return {
    status: true,
    message: 'Transactions retrieved',
    data: found.map(chargeData),
    meta: { total, perPage, page, pageCount: Math.max(1, Math.ceil(total / perPage)) },
  };
};

const customerInput = z.object({
  email: z.string().email(),
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  phone: z.string().max(20).optional(),
});

const customer: Route = async ({ db, clock }, req, reply) => {
  const b = customerInput.safeParse(req.body);
  if (!b.success) return apiError(reply, 400, 'Invalid customer');
  const email = b.data.email.toLowerCase();
  // Paystack answers an existing e-mail with the existing customer.
  await db.execute(sql`INSERT INTO sandbox_processor_customers (customer_code, email, first_name, last_name, phone, created_at)
      VALUES (${`CUS_${randomToken(10).toLowerCase()}`}, ${email}, ${b.data.first_name ?? null}, ${b.data.last_name ?? null}, ${b.data.phone ?? null}, ${clock.now()})
      ON CONFLICT (email) DO NOTHING`);
  const c = (await one<{ customer_code: string; first_name: string | null; last_name: string | null }>(
    db,
    sql`SELECT customer_code, first_name, last_name FROM sandbox_processor_customers WHERE email = ${email}`,
  ))!;
  return {
    status: true,
    message: 'Customer created',
    data: { email, customer_code: c.customer_code, first_name: c.first_name, last_name: c.last_name },
  };
};

const dedicatedAccount: Route = async ({ db, clock }, req, reply) => {
  const b = z.object({ customer: z.string().min(1), preferred_bank: z.string().optional() }).safeParse(req.body);
  if (!b.success) return apiError(reply, 400, 'customer is required');
  const c = await one<{ customer_code: string; first_name: string | null; last_name: string | null }>(
    db,
    sql`SELECT customer_code, first_name, last_name FROM sandbox_processor_customers WHERE customer_code = ${b.data.customer}`,
  );
  if (!c) return apiError(reply, 404, 'Customer not found');
  const name = `VTU/${[c.first_name, c.last_name].filter(Boolean).join(' ').toUpperCase() || 'CUSTOMER'}`;
  for (let i = 0; i < 5; i++) {
    // One account per customer (unique customer_code); a colliding account number just draws again.
    const number = `9${String(randomInt(0, 1e9)).padStart(9, '0')}`;
    await db.execute(sql`INSERT INTO sandbox_processor_accounts (account_number, customer_code, account_name, bank_name, created_at)
        VALUES (${number}, ${c.customer_code}, ${name}, 'Wema Bank', ${clock.now()}) ON CONFLICT DO NOTHING`);
    const acc = await one<{ account_number: string; account_name: string; bank_name: string }>(
      db,
      sql`SELECT account_number, account_name, bank_name FROM sandbox_processor_accounts WHERE customer_code = ${c.customer_code}`,
    );
    if (acc) {
      return {
        status: true,
        message: 'NUBAN successfully created',
        data: {
          bank: { name: acc.bank_name, id: 20, slug: 'wema-bank' },
          account_name: acc.account_name,
          account_number: acc.account_number,
          assigned: true,
          currency: 'NGN',
          active: true,
          id: Number(acc.account_number.slice(-6)),
          customer: { customer_code: c.customer_code },
        },
      };
    }
  }
  return apiError(reply, 500, 'Could not allocate an account number');
};

/** Each API route answers 401 without the secret key, as the processor does. */
export function registerProcessorApi(scope: FastifyInstance, sim: ProcessorSim) {
  const keyed = (route: Route) => async (req: FastifyRequest, reply: FastifyReply) =>
    authorised(sim, req) ? route(sim, req, reply) : apiError(reply, 401, 'Invalid key');
  scope.post(`${SIMULATOR_API_PREFIX}/transaction/initialize`, keyed(initialize));
  scope.get(`${SIMULATOR_API_PREFIX}/transaction/verify/:reference`, keyed(verify));
  scope.get(`${SIMULATOR_API_PREFIX}/transaction`, keyed(list));
  scope.post(`${SIMULATOR_API_PREFIX}/customer`, keyed(customer));
  scope.post(`${SIMULATOR_API_PREFIX}/dedicated_account`, keyed(dedicatedAccount));
}
