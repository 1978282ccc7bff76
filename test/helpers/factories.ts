import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { signProcessorPayload } from '../../src/providers/processor.js';
import { fundWallet, signIn, type Harness, type TestUser } from './harness.js';

/**
 * The one place tests make people, wallets, KYC states and processor webhooks. A user is signed in through the
 * real e-mail code flow; the facts other areas own (KYC tier, verified phone, a funded wallet) are put where those
 * areas would leave them, so a test of one area does not walk another's whole flow.
 */
export interface UserOptions {
  email?: string;
  /** Approved KYC tier (1-3). */
  tier?: number;
  username?: string;
  fullName?: string | null;
  /** The profile's phone, verified unless `phoneVerified: false`. */
  phone?: string | null;
  phoneVerified?: boolean;
  /** A transaction PIN. */
  pin?: string;
  /** Naira credited to the wallet (a ledger posting from the adjustments account). */
  naira?: number;
  /** A price level granted by an operator (issue 45: `agent` and above allow live API keys). */
  level?: string;
}

export async function user(h: Harness, opts: UserOptions = {}): Promise<TestUser> {
  const u = await signIn(h, opts.email ?? `u${randomUUID().slice(0, 8)}@example.com`);
  if (opts.username !== undefined || opts.fullName !== undefined) {
    await h.app.services.db.execute(
      sql`UPDATE users SET username = COALESCE(${opts.username ?? null}, username), full_name = ${opts.fullName ?? null} WHERE id = ${u.id}`,
    );
  }
  if (opts.phone !== undefined) {
    const verifiedAt = opts.phone && opts.phoneVerified !== false ? h.clock.now() : null;
    await h.app.services.db.execute(sql`UPDATE users SET phone = ${opts.phone}, phone_verified_at = ${verifiedAt} WHERE id = ${u.id}`);
  }
  if (opts.tier) await setKycTier(h, u.id, opts.tier);
  if (opts.pin) await h.app.services.pins.set(u.id, 'transaction', opts.pin);
  if (opts.naira) await fundWallet(h, u.id, opts.naira);
  if (opts.level) await grantLevel(h, u.id, opts.level);
  return u;
}

/**
 * Moves a customer to a price level as an approved grant leaves it (vtu_customer_levels; its trigger tells every
 * instance to drop the customer's cached level).
 */
export async function grantLevel(h: Harness, userId: string, level: string) {
  await h.app.services.db.execute(
    sql`INSERT INTO vtu_customer_levels (user_id, level, source, updated_at) VALUES (${userId}, ${level}, 'grant', ${h.clock.now()})
        ON CONFLICT (user_id) DO UPDATE SET level = EXCLUDED.level, source = 'grant', updated_at = EXCLUDED.updated_at`,
  );
}

/**
 * Sets an approved tier as the KYC module leaves it, by plain SQL as an in-process writer would: the auth_changed trigger tells every instance, and this
 * instance also forgets the user's cached session state at once, as the service's own writes do.
 */
export async function setKycTier(h: Harness, userId: string, tier: number) {
  await h.app.services.db.execute(sql`UPDATE users SET kyc_tier = ${tier} WHERE id = ${userId}`);
  h.app.services.identity.forgetUser(userId);
}

/**
 * Changes profile facts another area owns (a name KYC verified, a username, an account closed by settings), as that
 * area's own write would leave them, including the session cache.
 */
export async function setUserFacts(
  h: Harness,
  userId: string,
  facts: { fullName?: string; username?: string; status?: 'active' | 'closed' },
) {
  await h.app.services.db.execute(
    sql`UPDATE users SET full_name = COALESCE(${facts.fullName ?? null}, full_name), username = COALESCE(${facts.username ?? null}, username),
        status = COALESCE(${facts.status ?? null}, status) WHERE id = ${userId}`,
  );
  h.app.services.identity.forgetUser(userId);
}

/** A Tier 2 user as the KYC module leaves one: tier 2 and an approved Tier 2 record carrying the verified name. */
export async function tier2User(h: Harness, opts: UserOptions & { fullName: string }): Promise<TestUser> {
  const u = await user(h, { ...opts, tier: opts.tier ?? 2 });
  await approveTier2(h, u.id, opts.fullName);
  return u;
}

/** Gives a user an approved Tier 2 record with this verified name (and tier 2 at least) without the review flow. */
export async function approveTier2(h: Harness, userId: string, verifiedName: string) {
  const now = h.clock.now();
  await h.app.services.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, created_at, updated_at, reviewed_at)
      VALUES (${randomUUID()}, ${userId}, 2, 'approved', '[]'::jsonb, ${verifiedName}, '{}'::jsonb, ${now}, ${now}, ${now})`);
    await tx.execute(
      sql`UPDATE users SET kyc_tier = GREATEST(kyc_tier, 2), full_name = COALESCE(full_name, ${verifiedName}) WHERE id = ${userId}`,
    );
  });
  h.app.services.identity.forgetUser(userId);
}

/** The transaction PIN of `buyer`. */
export const PIN = '1234';

/** A user who may buy: transaction PIN, KYC Tier 1 and money. */
export function buyer(h: Harness, naira = 20_000): Promise<TestUser> {
  return user(h, { email: `b${randomUUID().slice(0, 8)}@example.com`, pin: PIN, tier: 1, naira });
}

/** The wallet's balance in naira, from the ledger. */
export async function walletBalance(h: Harness, userId: string): Promise<number> {
  const b = await h.app.services.ledger.userBalances(h.app.services.db, userId);
  return Number(b.wallet) / 100;
}

/** The sandbox processor's webhook path and secret (its signature is HMAC-SHA512 of the raw body). */
export const WEBHOOK = '/api/public/payments/webhook/processor';
export const PROCESSOR_SECRET = 'sk_sandbox_processor';
export const signWebhook = (body: string) => signProcessorPayload(PROCESSOR_SECRET, body);

/** A `charge.success` event body as the processor sends it (amount in kobo). */
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

/**
 * Four-eyes thresholds (naira) as a decision taken earlier: raising one through the API waits for a second admin, or
 * 24 hours with one (issue 41), which tests of other areas need not go through. Lowering through the API applies at once.
 */
export async function approvalThresholds(
  h: Harness,
  naira: Partial<Record<'wallet_adjustment' | 'vtu_resolution' | 'settlement_correction', number>>,
): Promise<void> {
  for (const [action, value] of Object.entries(naira))
    await h.app.services.db.execute(sql`INSERT INTO approval_settings (action, threshold, updated_at)
      VALUES (${action}, ${Math.round(value * 100)}, ${h.clock.now()})
      ON CONFLICT (action) DO UPDATE SET threshold = EXCLUDED.threshold, updated_at = EXCLUDED.updated_at, scheduled_threshold = NULL, scheduled_at = NULL`);
}
