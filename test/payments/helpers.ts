import { sql } from 'drizzle-orm';
import { call, type Harness, type TestUser } from '../helpers/harness.js';
import { WEBHOOK } from '../helpers/factories.js';

export { chargeSuccess, PROCESSOR_SECRET as SECRET, signWebhook as sign, tier2User, user, WEBHOOK } from '../helpers/factories.js';

export function postRaw(h: Harness, body: string, signature?: string, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-processor-signature': signature }), ...headers },
    payload: body,
  });
}

export async function createIntent(h: Harness, u: TestUser, amount: number) {
  const r = await call(h, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount }, { token: u.token });
  if (r.statusCode !== 200) throw new Error(`createTopupIntent: ${r.body}`);
  return r.json() as {
    id: string;
    reference: string;
    amount: number;
    status: string;
    checkoutUrl: string;
    processor: string;
    createdAt: string;
  };
}

export async function balance(h: Harness, u: TestUser): Promise<number> {
  const r = await call(h, 'GET', '/_serverFn/getWalletStateBearerWallet', undefined, { token: u.token });
  return r.json().balance;
}

export async function topupCredits(h: Harness, reference: string): Promise<number> {
  const r = await h.app.services.db.execute(
    sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference LIKE ${'payin:%:' + reference}`,
  );
  return Number((r as unknown as { rows: { n: number }[] }).rows[0].n);
}

export function sandboxPay(h: Harness, body: Record<string, unknown>) {
  return h.app.inject({ method: 'POST', url: '/sandbox/processor/pay', payload: body });
}

export async function count(h: Harness, query: ReturnType<typeof sql>): Promise<number> {
  const r = (await h.app.services.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(r.rows[0].n);
}
