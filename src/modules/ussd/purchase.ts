import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { MINUTE, SECOND } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import type { Network } from '../../kernel/phone.js';
import { assertRecipientNetwork } from '../vtu/api.js';
import { purchaseOf, type Order } from './order.js';
import { end, type Screen } from './screens.js';
import { textsOf, ussdLanguage, type UssdLanguage, type UssdTexts } from './texts.js';

/**
 * A USSD purchase (docs/decisions.md, "USSD"): through vtu's one purchase path, channel 'ussd'. The session's step
 * is claimed first (ussd_purchases, keyed on sessionId + step), so a gateway retry of the step never buys again.
 * The purchase gets USSD_REPLY_MS to finish; a purchase still running then, or left processing by the provider,
 * ends the session with "we will SMS the result", and the result job sends it once the purchase is settled.
 */
export const USSD_RESULT_JOB = 'ussd.result';
/** The result job looks again after 30 s, doubling to 30 min, and stops after a day. */
const FIRST_LOOK_MS = 30 * SECOND;
const LONGEST_WAIT_MS = 30 * MINUTE;
const MAX_LOOKS = 60;

export type PurchaseDeps = Pick<Services, 'db' | 'clock' | 'log' | 'work' | 'vtu' | 'outbox' | 'customers' | 'config'>;

export interface Buyer {
  userId: string;
  kycTier: number;
  phone: string;
}

type Bought = Awaited<ReturnType<Services['vtu']['purchase']>>;

/** What a refused purchase says, by its error. */
function refusalText(err: unknown, t: UssdTexts): string {
  if (!(err instanceof AppError)) return t.unavailable;
  switch (err.code) {
    case 'INSUFFICIENT_FUNDS':
      return t.noFunds;
    case 'LIMIT_EXCEEDED':
      return t.limit;
    case 'KYC_TIER_REQUIRED':
      return t.tier;
    case 'NETWORK_MISMATCH':
      return t.badNumber.split('.')[0]!;
    default:
      return t.unavailable;
  }
}

/** The words of a settled purchase (an electricity token goes with them). */
function resultText(tx: Pick<Bought, 'status' | 'reference'> & { token?: string }, summary: string, t: UssdTexts): string {
  if (tx.status === 'failed') return t.failed(summary);
  if (tx.status === 'success') return t.delivered(tx.token ? `${summary} Token ${tx.token}` : summary, tx.reference);
  return t.willSms(summary);
}

const late = Symbol('late');

function withinBudget<T>(work: Promise<T>, ms: number): Promise<T | typeof late> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  return Promise.race([work, budget]).finally(() => clearTimeout(timer));
}

export function createUssdPurchases(deps: PurchaseDeps) {
  const { db, clock, log, vtu, outbox, customers, config } = deps;

  async function claim(sessionId: string, step: number, buyer: Buyer, lang: UssdLanguage, summary: string): Promise<boolean> {
    const r = await one(
      db,
      sql`INSERT INTO ussd_purchases (session_id, step, user_id, phone, language, summary, created_at)
          VALUES (${sessionId}, ${step}, ${buyer.userId}, ${buyer.phone}, ${lang}, ${summary}, ${clock.now()})
          ON CONFLICT (session_id, step) DO NOTHING RETURNING 1`,
    );
    return Boolean(r);
  }

  /** Keeps the purchase's id; a settled one has its result sent by SMS, a processing one is looked at later. */
  async function settleLater(sessionId: string, step: number, outcome: Bought | AppError | Error) {
    if (outcome instanceof Error) return smsNow(sessionId, step, outcome);
    await db.execute(sql`UPDATE ussd_purchases SET transaction_id = ${outcome.id} WHERE session_id = ${sessionId} AND step = ${step}`);
    if (outcome.status === 'processing') return lookLater(sessionId, step, 0);
    return smsNow(sessionId, step, outcome);
  }

  async function lookLater(sessionId: string, step: number, looks: number) {
    const delayMs = Math.min(FIRST_LOOK_MS * 2 ** looks, LONGEST_WAIT_MS);
    await deps.work
      .change()
      .enqueue(USSD_RESULT_JOB, { sessionId, step, looks }, { delayMs, singletonKey: `ussd:${sessionId}:${step}:${looks}` })
      .commit();
  }

  /** The result by SMS to the caller, once (notified_at, and the outbox's dedupe key). */
  async function smsNow(sessionId: string, step: number, outcome: (Pick<Bought, 'status' | 'reference'> & { token?: string }) | Error) {
    const row = await one<{ phone: string; language: string; summary: string }>(
      db,
      sql`SELECT phone, language, summary FROM ussd_purchases WHERE session_id = ${sessionId} AND step = ${step} AND notified_at IS NULL`,
    );
    if (!row) return;
    const t = textsOf(ussdLanguage(row.language));
    const text = outcome instanceof Error ? refusalText(outcome, t) : resultText(outcome, row.summary, t);
    await db.transaction(async (tx) => {
      await outbox.sendSms(tx, { to: row.phone, text }, { dedupeKey: `ussd:${sessionId}:${step}` });
      await tx.execute(sql`UPDATE ussd_purchases SET notified_at = ${clock.now()} WHERE session_id = ${sessionId} AND step = ${step}`);
    });
  }

  /** Buys the order for the session's step: the screen that ends the session. */
  async function buy(sessionId: string, step: number, buyer: Buyer, order: Order, summary: string, lang: UssdLanguage): Promise<Screen> {
    const t = textsOf(lang);
    if (await customers.isFrozen(buyer.userId)) return end(t.frozen);
    if (!(await claim(sessionId, step, buyer, lang, summary))) return end(t.willSms(summary));
    const { kind, input } = purchaseOf(order, buyer.phone);
    const work = (async () => {
      if (kind === 'airtime' || kind === 'data') assertRecipientNetwork(input.network as Network, String(input.phone), false);
      return vtu.purchase({ id: buyer.userId, kycTier: buyer.kycTier }, kind, input, 'ussd');
    })();
    const outcome = await withinBudget(
      work.catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
      config.ussd.replyMs,
    );
    if (outcome === late) {
      void work
        .then((tx) => settleLater(sessionId, step, tx))
        .catch((err: unknown) => settleLater(sessionId, step, err instanceof Error ? err : new Error(String(err))))
        .catch((err: unknown) => log.error({ err, sessionId, step }, 'ussd purchase result not kept'));
      return end(t.willSms(summary));
    }
    if (outcome instanceof Error) {
      if (outcome instanceof AppError) log.info({ code: outcome.code, reason: outcome.message, sessionId, step }, 'ussd purchase refused');
      else log.error({ err: outcome, sessionId, step }, 'ussd purchase failed');
      await db.execute(sql`UPDATE ussd_purchases SET notified_at = ${clock.now()} WHERE session_id = ${sessionId} AND step = ${step}`);
      return end(refusalText(outcome, t));
    }
    await db.execute(sql`UPDATE ussd_purchases SET transaction_id = ${outcome.id},
                           notified_at = ${outcome.status === 'processing' ? null : clock.now()}
                         WHERE session_id = ${sessionId} AND step = ${step}`);
    if (outcome.status === 'processing') await lookLater(sessionId, step, 0);
    return end(resultText(outcome, summary, t));
  }

  /** The result job: the purchase settled sends its SMS; still processing, it looks again later. */
  async function lookAgain(p: { sessionId: string; step: number; looks: number }) {
    const row = await one<{ user_id: string; transaction_id: string | null }>(
      db,
      sql`SELECT user_id::text AS user_id, transaction_id::text AS transaction_id FROM ussd_purchases
          WHERE session_id = ${p.sessionId} AND step = ${p.step} AND notified_at IS NULL`,
    );
    if (!row?.transaction_id) return;
    const tx = await vtu.getMine(row.user_id, row.transaction_id);
    if (tx.status !== 'processing') return smsNow(p.sessionId, p.step, tx);
    if (p.looks + 1 < MAX_LOOKS) await lookLater(p.sessionId, p.step, p.looks + 1);
  }

  return { buy, lookAgain };
}

export const resultJobPayload = z.object({
  sessionId: z.string().min(1).max(200),
  step: z.number().int().min(0),
  looks: z.number().int().min(0),
});
