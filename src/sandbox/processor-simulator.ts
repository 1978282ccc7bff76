import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one } from '../db/client.js';
import { AppError, parseInput } from '../kernel/errors.js';
import { randomToken } from '../lib/crypto.js';
import { prefixedId } from '../kernel/ids.js';
import { formatNaira, nairaAmount, toKobo } from '../kernel/money.js';
import { WEBHOOK_PATH } from '../http/routes/payments-webhook.js';
import type { Services } from '../platform/services.js';
import { statusOf } from '../http/errors.js';
import { registerProcessorApi } from './processor-simulator-api.js';
import { registerProcessorTransfers } from './processor-simulator-transfers.js';
import { TX_COLUMNS, act, deliverWebhook, esc, findTx, page, type ProcessorSim, type SimTx } from './processor-simulator-state.js';

/**
 * Sandbox payment processor (docs/design.md §8, §11), Paystack-style. Mounted on this app:
 * - processor API under /sandbox/processor/api (Bearer secret key): transaction/initialize,
 *   transaction/verify/:reference, customer, dedicated_account — what src/providers/processor.ts calls
 *   (processor-simulator-api.ts);
 * - the checkout page at /sandbox/processor/checkout/:accessCode with Pay, Fail and Abandon buttons;
 * - control endpoints POST /sandbox/processor/pay and /sandbox/processor/dva-transfer.
 * State lives in the database (sandbox_processor_*, processor-simulator-state.ts), so every instance sees the same
 * checkout. A successful charge sends a charge.success webhook signed with HMAC-SHA512 of the body under the secret
 * key to PUBLIC_URL + the webhook path, through the same transport the adapter uses (in-process when not listening).
 */
export { SIMULATOR_API_PREFIX } from './processor-simulator-state.js';

const notFoundPage = '<p id="result">This checkout does not exist.</p>';

async function checkoutPage(sim: ProcessorSim, req: FastifyRequest, reply: FastifyReply) {
  const t = await findTx(sim.db, { accessCode: (req.params as { accessCode: string }).accessCode });
  if (!t) return reply.status(404).type('text/html').send(page('Checkout not found', notFoundPage));
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
}

async function checkoutAction(sim: ProcessorSim, req: FastifyRequest, reply: FastifyReply) {
  const t = await findTx(sim.db, { accessCode: (req.params as { accessCode: string }).accessCode });
  if (!t) return reply.status(404).type('text/html').send(page('Checkout not found', notFoundPage));
  const action = (req.body as { action?: unknown } | undefined)?.action;
  const outcome = action === 'pay' ? 'success' : action === 'fail' ? 'failed' : action === 'abandon' ? 'abandoned' : null;
  if (!outcome) return reply.status(400).type('text/html').send(page('Checkout', '<p id="result">Choose Pay, Fail or Abandon.</p>'));
  try {
    await act(sim, t.reference, outcome, { webhook: true });
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
}

const payInput = z
  .object({
    reference: z.string().min(1, 'reference is required').max(100),
    outcome: z.enum(['success', 'failed', 'abandoned']).default('success'),
    webhook: z.boolean().default(true),
    // Sandbox extension: the customer pays a different amount than initialised (amount-mismatch tests).
    amount: nairaAmount({ min: 0.01, max: 100_000_000 }).optional(),
  })
  .strict();

async function pay(sim: ProcessorSim, req: FastifyRequest) {
  const b = parseInput(payInput, req.body);
  const r = await act(sim, b.reference, b.outcome, {
    webhook: b.webhook,
    amountPaid: b.amount === undefined ? undefined : toKobo(b.amount),
  });
  return { ok: true, reference: b.reference, status: r.transaction.status, webhook: r.webhook };
}

const dvaTransferInput = z
  .object({
    accountNumber: z.string().regex(/^\d{10}$/, 'accountNumber must be 10 digits'),
    amount: nairaAmount({ min: 0.01, max: 100_000_000 }),
    webhook: z.boolean().default(true),
  })
  .strict();

/** A bank transfer into a customer's dedicated account: a paid transaction of channel dedicated_nuban. */
async function dvaTransfer(sim: ProcessorSim, req: FastifyRequest) {
  const { db, clock } = sim;
  const b = parseInput(dvaTransferInput, req.body);
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
  const webhook = b.webhook ? await deliverWebhook(sim, t) : { delivered: false, status: null };
  return { ok: true, reference, status: 'success', webhook };
}

export async function registerProcessorSimulator(app: FastifyInstance, services: Services) {
  const { config } = services;
  const sim: ProcessorSim = {
    db: services.db,
    clock: services.clock,
    services,
    secret: config.processor.secretKey,
    publicUrl: config.publicUrl,
    webhookUrl: `${config.publicUrl}${WEBHOOK_PATH}`,
  };
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    registerProcessorApi(scope, sim);
    registerProcessorTransfers(scope, sim);
    // The checkout page (a browser).
    scope.get('/sandbox/processor/checkout/:accessCode', (req, reply) => checkoutPage(sim, req, reply));
    scope.post('/sandbox/processor/checkout/:accessCode', (req, reply) => checkoutAction(sim, req, reply));
    // Control endpoints (docs/design.md §8).
    scope.post('/sandbox/processor/pay', (req) => pay(sim, req));
    scope.post('/sandbox/processor/dva-transfer', (req) => dvaTransfer(sim, req));
  });
}
