import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, rows, type Executor } from '../db/client.js';
import { AppError, parseInput } from '../kernel/errors.js';
import { randomToken, safeEqual } from '../lib/crypto.js';
import { prefixedId } from '../kernel/ids.js';
import { formatNaira, nairaAmount, toKobo } from '../kernel/money.js';
import { WEBHOOK_PATH } from '../http/routes/payments-webhook.js';
import { signProcessorPayload } from '../providers/processor.js';
import type { Services } from '../platform/services.js';
import { statusOf } from '../http/errors.js';

/**
 * Sandbox payment processor (docs/design.md §8, §11), Paystack-style. Mounted on this app:
 * - processor API under /sandbox/processor/api (Bearer secret key): transaction/initialize,
 *   transaction/verify/:reference, customer, dedicated_account — what src/providers/processor.ts calls;
 * - the checkout page at /sandbox/processor/checkout/:accessCode with Pay, Fail and Abandon buttons;
 * - control endpoints POST /sandbox/processor/pay and /sandbox/processor/dva-transfer.
 * State lives in the database (sandbox_processor_*), so every instance sees the same checkout. A successful
 * charge sends a charge.success webhook signed with HMAC-SHA512 of the body under the secret key to
 * PUBLIC_URL + the webhook path, through the same transport the adapter uses (in-process when not listening).
 */
export const SIMULATOR_API_PREFIX = '/sandbox/processor/api';

interface SimTx {
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

const TX_COLUMNS = sql.raw(
  `reference, access_code, email, amount::text AS amount, amount_paid::text AS amount_paid, currency, status, channel, callback_url, metadata,
   customer_code, receiver_account_number, paid_at, created_at`,
);

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const apiError = (reply: FastifyReply, status: number, message: string) => reply.status(status).send({ status: false, message });

export async function registerProcessorSimulator(app: FastifyInstance, services: Services) {
  const { db, clock, config } = services;
  const secret = config.processor.secretKey;
  const webhookUrl = `${config.publicUrl}${WEBHOOK_PATH}`;

  const authorised = (req: FastifyRequest) => {
    const h = req.headers.authorization;
    return typeof h === 'string' && safeEqual(h, `Bearer ${secret}`);
  };

  async function findTx(exec: Executor, where: { reference?: string; accessCode?: string }) {
    if (where.reference !== undefined)
      return one<SimTx>(exec, sql`SELECT ${TX_COLUMNS} FROM sandbox_processor_transactions WHERE reference = ${where.reference}`);
    return one<SimTx>(exec, sql`SELECT ${TX_COLUMNS} FROM sandbox_processor_transactions WHERE access_code = ${where.accessCode!}`);
  }

  function chargeData(t: SimTx) {
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
  async function deliverWebhook(t: SimTx): Promise<{ delivered: boolean; status: number | null }> {
    const body = JSON.stringify({ event: 'charge.success', data: chargeData(t) });
    try {
      const res = await services.upstream.send(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-processor-signature': signProcessorPayload(secret, body) },
        body,
        timeoutMs: 10_000,
      });
      return { delivered: res.status === 200, status: res.status };
    } catch (err) {
      services.log.warn({ err: (err as Error).message, reference: t.reference }, 'sandbox processor: webhook delivery failed');
      return { delivered: false, status: null };
    }
  }

  /** The customer's action at checkout. Success is final; a failed or abandoned checkout may still be paid. */
  async function act(reference: string, outcome: 'success' | 'failed' | 'abandoned', opts: { webhook: boolean; amountPaid?: bigint }) {
    const now = clock.now();
    const t = await one<SimTx>(
      db,
      sql`UPDATE sandbox_processor_transactions
          SET status = ${outcome}, amount_paid = ${outcome === 'success' ? (opts.amountPaid ?? null) : null}, paid_at = ${outcome === 'success' ? now : null}
          WHERE reference = ${reference} AND status <> 'success'
          RETURNING ${TX_COLUMNS}`,
    );
    if (!t) {
      const existing = await findTx(db, { reference });
      if (!existing) throw new AppError('NOT_FOUND', `No sandbox processor transaction ${reference}`);
      throw new AppError('CONFLICT', `Transaction ${reference} is already paid`);
    }
    const webhook = outcome === 'success' && opts.webhook ? await deliverWebhook(t) : { delivered: false, status: null };
    return { transaction: t, webhook };
  }

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    // ---- processor API (what the adapter calls) ----
    scope.post(`${SIMULATOR_API_PREFIX}/transaction/initialize`, async (req, reply) => {
      if (!authorised(req)) return apiError(reply, 401, 'Invalid key');
      const b = z
        .object({
          email: z.string().email(),
          amount: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
          reference: z.string().min(1).max(100).optional(),
          callback_url: z.string().url().optional(),
          metadata: z.record(z.string(), z.unknown()).optional(),
        })
        .safeParse(req.body);
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
        data: { authorization_url: `${config.publicUrl}/sandbox/processor/checkout/${accessCode}`, access_code: accessCode, reference },
      };
    });

    scope.get(`${SIMULATOR_API_PREFIX}/transaction/verify/:reference`, async (req, reply) => {
      if (!authorised(req)) return apiError(reply, 401, 'Invalid key');
      const { reference } = req.params as { reference: string };
      const t = await findTx(db, { reference });
      if (!t) return apiError(reply, 400, 'Transaction reference not found');
      return { status: true, message: 'Verification successful', data: chargeData(t) };
    });

    scope.get(`${SIMULATOR_API_PREFIX}/transaction`, async (req, reply) => {
      if (!authorised(req)) return apiError(reply, 401, 'Invalid key');
      const q = z
        .object({
          status: z.enum(['success', 'failed', 'abandoned', 'pending']).optional(),
          from: z.string().datetime({ offset: true }).optional(),
          to: z.string().datetime({ offset: true }).optional(),
          perPage: z.coerce.number().int().min(1).max(100).default(50),
          page: z.coerce.number().int().min(1).default(1),
        })
        .safeParse(req.query);
      if (!q.success) return apiError(reply, 400, 'Invalid query');
      const { status, perPage, page } = q.data;
      const from = q.data.from ? new Date(q.data.from) : new Date(0);
      const to = q.data.to ? new Date(q.data.to) : new Date(8.64e15);
      const where = sql`(${status ?? null}::text IS NULL OR status = ${status ?? null}) AND COALESCE(paid_at, created_at) >= ${from} AND COALESCE(paid_at, created_at) < ${to}`;
      const total = Number(
        (await one<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM sandbox_processor_transactions WHERE ${where}`))!.n,
      );
      const list = await rows<SimTx>(
        db,
        sql`SELECT ${TX_COLUMNS} FROM sandbox_processor_transactions WHERE ${where}
            ORDER BY COALESCE(paid_at, created_at), reference LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      );
      return {
        status: true,
        message: 'Transactions retrieved',
        data: list.map(chargeData),
        meta: { total, perPage, page, pageCount: Math.max(1, Math.ceil(total / perPage)) },
      };
    });

    scope.post(`${SIMULATOR_API_PREFIX}/customer`, async (req, reply) => {
      if (!authorised(req)) return apiError(reply, 401, 'Invalid key');
      const b = z
        .object({
          email: z.string().email(),
          first_name: z.string().max(100).optional(),
          last_name: z.string().max(100).optional(),
          phone: z.string().max(20).optional(),
        })
        .safeParse(req.body);
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
    });

    scope.post(`${SIMULATOR_API_PREFIX}/dedicated_account`, async (req, reply) => {
      if (!authorised(req)) return apiError(reply, 401, 'Invalid key');
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
    });

    // ---- checkout page (a browser) ----
    scope.get('/sandbox/processor/checkout/:accessCode', async (req, reply) => {
      const t = await findTx(db, { accessCode: (req.params as { accessCode: string }).accessCode });
      if (!t)
        return reply.status(404).type('text/html').send(page('Checkout not found', '<p id="result">This checkout does not exist.</p>'));
      if (t.status === 'success')
        return reply.type('text/html').send(page('Already paid', `<p id="result">Payment ${esc(t.reference)} is already paid.</p>`));
      const body = `
        <p>Pay <strong id="amount">${esc(formatNaira(BigInt(t.amount)))}</strong> as <span id="email">${esc(t.email)}</span></p>
        <p>Reference <code id="reference">${esc(t.reference)}</code></p>
        <form method="post">
          <button id="pay" name="action" value="pay" type="submit">Pay</button>
          <button id="fail" name="action" value="fail" type="submit">Fail</button>
          <button id="abandon" name="action" value="abandon" type="submit">Abandon</button>
        </form>`;
      return reply.type('text/html').send(page('Sandbox checkout', body));
    });

    scope.post('/sandbox/processor/checkout/:accessCode', async (req, reply) => {
      const t = await findTx(db, { accessCode: (req.params as { accessCode: string }).accessCode });
      if (!t)
        return reply.status(404).type('text/html').send(page('Checkout not found', '<p id="result">This checkout does not exist.</p>'));
      const action = (req.body as { action?: unknown } | undefined)?.action;
      const outcome = action === 'pay' ? 'success' : action === 'fail' ? 'failed' : action === 'abandon' ? 'abandoned' : null;
      if (!outcome) return reply.status(400).type('text/html').send(page('Checkout', '<p id="result">Choose Pay, Fail or Abandon.</p>'));
      try {
        await act(t.reference, outcome, { webhook: true });
      } catch (err) {
        if (err instanceof AppError)
          return reply
            .status(statusOf(err.code))
            .type('text/html')
            .send(page('Checkout', `<p id="result">${esc(err.message)}</p>`));
        throw err;
      }
      // Like a real processor, the browser goes back to the merchant's callback; that redirect credits nothing.
      if (t.callback_url) {
        const u = new URL(t.callback_url);
        u.searchParams.set('trxref', t.reference);
        u.searchParams.set('reference', t.reference);
        return reply.redirect(u.toString(), 303);
      }
      const text = outcome === 'success' ? 'Payment successful' : outcome === 'failed' ? 'Payment failed' : 'Payment abandoned';
      return reply.type('text/html').send(page(text, `<p id="result">${text}</p><p>You can return to the app.</p>`));
    });

    // ---- control endpoints (docs/design.md §8) ----
    scope.post('/sandbox/processor/pay', async (req) => {
      const b = parseInput(
        z
          .object({
            reference: z.string().min(1, 'reference is required').max(100),
            outcome: z.enum(['success', 'failed', 'abandoned']).default('success'),
            webhook: z.boolean().default(true),
            // Sandbox extension: the customer pays a different amount than initialised (amount-mismatch tests).
            amount: nairaAmount({ min: 0.01, max: 100_000_000 }).optional(),
          })
          .strict(),
        req.body,
      );
      const r = await act(b.reference, b.outcome, {
        webhook: b.webhook,
        amountPaid: b.amount === undefined ? undefined : toKobo(b.amount),
      });
      return { ok: true, reference: b.reference, status: r.transaction.status, webhook: r.webhook };
    });

    scope.post('/sandbox/processor/dva-transfer', async (req) => {
      const b = parseInput(
        z
          .object({
            accountNumber: z.string().regex(/^\d{10}$/, 'accountNumber must be 10 digits'),
            amount: nairaAmount({ min: 0.01, max: 100_000_000 }),
            webhook: z.boolean().default(true),
          })
          .strict(),
        req.body,
      );
      const acc = await one<{ customer_code: string; email: string }>(
        db,
        sql`SELECT a.customer_code, c.email FROM sandbox_processor_accounts a JOIN sandbox_processor_customers c ON c.customer_code = a.customer_code
            WHERE a.account_number = ${b.accountNumber}`,
      );
      if (!acc) throw new AppError('NOT_FOUND', `No dedicated account ${b.accountNumber} at the sandbox processor`);
      const now = clock.now();
      const reference = prefixedId('dva', now.getTime());
      const t = (await one<SimTx>(
        db,
        sql`INSERT INTO sandbox_processor_transactions (reference, access_code, email, amount, amount_paid, status, channel, customer_code, receiver_account_number, paid_at, created_at)
            VALUES (${reference}, ${randomToken(12)}, ${acc.email}, ${toKobo(b.amount)}, ${toKobo(b.amount)}, 'success', 'dedicated_nuban', ${acc.customer_code}, ${b.accountNumber}, ${now}, ${now})
            RETURNING ${TX_COLUMNS}`,
      ))!;
      const webhook = b.webhook ? await deliverWebhook(t) : { delivered: false, status: null };
      return { ok: true, reference, status: 'success', webhook };
    });
  });
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{margin:.25rem;padding:.6rem 1.2rem}</style>
</head><body><h1>Sandbox processor</h1>${body}</body></html>`;
}
