import { sql } from 'drizzle-orm';
import { signProcessorPayload } from '../../src/providers/processor.js';
import { call, setKycTier, signIn, type Harness, type TestUser } from '../helpers/harness.js';

export const SECRET = 'sk_sandbox_processor';
export const WEBHOOK = '/api/public/payments/webhook/processor';

export async function user(
  h: Harness,
  opts: { tier?: number; username?: string; fullName?: string; pin?: string } = {},
): Promise<TestUser> {
  const u = await signIn(h);
  if (opts.tier) await setKycTier(h, u.id, opts.tier);
  if (opts.username || opts.fullName) {
    await h.app.services.db.execute(
      sql`UPDATE users SET username = ${opts.username ?? null}, full_name = ${opts.fullName ?? null} WHERE id = ${u.id}`,
    );
  }
  if (opts.pin) await h.app.services.pins.set(u.id, 'transaction', opts.pin);
  return u;
}

export function postRaw(h: Harness, body: string, signature?: string, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-processor-signature': signature }), ...headers },
    payload: body,
  });
}

export const sign = (body: string) => signProcessorPayload(SECRET, body);

export function chargeSuccess(reference: string, amountKobo: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    event: 'charge.success',
    data: {
      reference,
      amount: amountKobo,
      status: 'success',
      currency: 'NGN',
      channel: 'card',
      paid_at: '2026-01-15T09:00:00.000Z',
      customer: { email: 'x@example.com', customer_code: 'CUS_x' },
      ...extra,
    },
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

/** A Tier 2 user as the KYC module leaves one: tier 2 plus an approved Tier 2 record carrying the verified name. */
export async function tier2User(h: Harness, opts: { username: string; fullName: string; pin?: string; tier?: number }) {
  const u = await user(h, { tier: opts.tier ?? 2, username: opts.username, fullName: opts.fullName, pin: opts.pin });
  if ((h.app.services as { kyc?: unknown }).kyc) {
    const now = h.clock.now();
    await h.app.services.db.execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, verified_name, created_at, updated_at)
        VALUES (gen_random_uuid(), ${u.id}, 2, 'approved', ${opts.fullName}, ${now}, ${now})`);
  }
  return u;
}

export async function count(h: Harness, query: ReturnType<typeof sql>): Promise<number> {
  const r = (await h.app.services.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(r.rows[0].n);
}
