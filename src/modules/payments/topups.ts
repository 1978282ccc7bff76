import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { ProcessorAdapter } from '../../providers/processor.js';
import type { WalletLimits } from '../wallet/api.js';
import { INTENT_COLUMNS, intentView, type IntentRow } from './model.js';
import type { Settlement } from './settlement.js';

/** What starting and verifying a top-up needs. */
export interface Topups {
  db: Db;
  clock: Clock;
  walletLimits: WalletLimits;
  /** The processor a customer asked for (VALIDATION_FAILED when unknown), else the default one. */
  processorFor: (id: string | undefined) => ProcessorAdapter;
  /** The processor an intent was started at. */
  adapterOf: (id: string) => ProcessorAdapter;
  settleCharge: Settlement['settleCharge'];
  /** The origins a direct top-up's callback URL may be on (TOPUP_CALLBACK_ORIGINS). */
  callbackOrigins: readonly string[];
}

export async function ownIntent(exec: Executor, userId: string, reference: string): Promise<IntentRow> {
  const r = await one<IntentRow>(
    exec,
    sql`SELECT ${INTENT_COLUMNS} FROM topup_intents WHERE reference = ${reference} AND user_id = ${userId}`,
  );
  if (!r) throw notFound('Top-up');
  return r;
}

export async function intentById(exec: Executor, id: string): Promise<IntentRow> {
  return (await one<IntentRow>(exec, sql`SELECT ${INTENT_COLUMNS} FROM topup_intents WHERE id = ${id}`))!;
}

async function startTopup(
  { db, clock, walletLimits, processorFor }: Topups,
  user: AuthUser,
  input: { amount: number; processor?: string; email: string; callbackUrl?: string; origin: 'intent' | 'api' },
) {
  const adapter = processorFor(input.processor);
  const amount = toKobo(input.amount);
  // docs/design.md §6: refuse up front a top-up that would pass the tier's balance cap.
  const headroom = await walletLimits.balanceHeadroom(db, user.id, user.kycTier);
  if (headroom !== null && amount > headroom) {
    const cap = walletLimits.limitsFor(user.kycTier).balanceCap!;
    throw new AppError(
      'AMOUNT_OUT_OF_RANGE',
      headroom === 0n
        ? `Your wallet is at the ${formatNaira(cap)} balance limit of KYC tier ${user.kycTier}; upgrade your KYC tier to top up`
        : `You can top up at most ${formatNaira(headroom)} now: KYC tier ${user.kycTier} wallets hold at most ${formatNaira(cap)}`,
    );
  }
  const now = clock.now();
  const id = uuid();
  const reference = prefixedId('top', now.getTime());
  // The intent exists before the processor knows the reference, so no payment can arrive for an unknown one.
  await db.execute(sql`INSERT INTO topup_intents (id, user_id, reference, processor, amount, status, origin, email, callback_url, created_at, updated_at)
      VALUES (${id}, ${user.id}, ${reference}, ${adapter.id}, ${amount}, 'pending', ${input.origin}, ${input.email}, ${input.callbackUrl ?? null}, ${now}, ${now})`);
  let init;
  try {
    init = await adapter.initialize({
      email: input.email,
      amount,
      reference,
      callbackUrl: input.callbackUrl,
      metadata: { intentId: id, userId: user.id },
    });
  } catch (err) {
    await db.execute(
      sql`UPDATE topup_intents SET status = 'failed', failure_reason = 'processor refused to start the payment', updated_at = ${clock.now()} WHERE id = ${id}`,
    );
    throw err;
  }
  await db.execute(
    sql`UPDATE topup_intents SET checkout_url = ${init.authorizationUrl}, access_code = ${init.accessCode}, updated_at = ${clock.now()} WHERE id = ${id}`,
  );
  return { intent: await intentById(db, id), accessCode: init.accessCode };
}

/** createTopupIntent: the checkout flow; the processor mails its receipt to the account e-mail. */
export async function createTopupIntent(t: Topups, user: AuthUser, input: { amount: number; processor?: string }) {
  const { intent } = await startTopup(t, user, { ...input, email: user.email, origin: 'intent' });
  return intentView(intent);
}

/** startProcessorTopup: the direct processor flow with the client's own callback URL. */
export async function startProcessorTopup(t: Topups, user: AuthUser, input: { amount: number; email: string; callbackUrl: string }) {
  // The processor's checkout sends the payer to this URL: only our own origin or one the operator listed, so a
  // crafted request cannot turn our checkout into a redirect to someone else's site.
  const allowed = t.callbackOrigins;
  if (!allowed.includes(new URL(input.callbackUrl).origin)) {
    const message = `Callback URL must be on ${allowed.join(' or ')} (the operator can list more origins in TOPUP_CALLBACK_ORIGINS)`;
    throw new AppError('VALIDATION_FAILED', message, { issues: [{ path: 'callbackUrl', message }] });
  }
  const { intent, accessCode } = await startTopup(t, user, { ...input, origin: 'api' });
  return { ...intentView(intent), authorizationUrl: intent.checkout_url!, accessCode };
}

export async function getTopupIntent(db: Db, userId: string, reference: string) {
  return intentView(await ownIntent(db, userId, reference));
}

/** verifyProcessorTopup (spec 6.5): asks the processor and settles at once when it reports success. */
export async function verifyProcessorTopup({ db, clock, adapterOf, settleCharge }: Topups, userId: string, reference: string) {
  const intent = await ownIntent(db, userId, reference);
  if (intent.status === 'success') return { ...intentView(intent), credited: false };
  const v = await adapterOf(intent.processor).verify(reference);
  const now = clock.now();
  let credited = false;
  if (v.status === 'success' && v.currency === 'NGN' && v.amount > 0n) {
    credited = await db.transaction((tx) =>
      settleCharge(tx, {
        processor: intent.processor,
        reference,
        userId,
        intentId: intent.id,
        kind: 'topup',
        amount: v.amount,
        channel: v.channel,
        paidAt: v.paidAt,
        source: 'verify',
      }),
    );
  } else if (v.status === 'failed' || v.status === 'abandoned') {
    // A later charge.success still credits and turns the intent into success.
    await db.execute(sql`UPDATE topup_intents SET status = ${v.status}, failure_reason = ${`processor reports ${v.status}`}, last_checked_at = ${now}, updated_at = ${now}
        WHERE id = ${intent.id} AND status <> 'success'`);
  } else {
    await db.execute(sql`UPDATE topup_intents SET last_checked_at = ${now} WHERE id = ${intent.id}`);
  }
  return { ...intentView(await intentById(db, intent.id)), credited };
}
