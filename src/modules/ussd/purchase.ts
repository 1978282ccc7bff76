import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { Network } from '../../kernel/phone.js';
import { assertRecipientNetwork } from '../vtu/api.js';
import { purchaseOf, type Order } from './order.js';
import { lookAgain, lookLater, refusalText, resultText, settleLater, type PurchaseDeps } from './purchase-result.js';
import { end, type Screen } from './screens.js';
import { textsOf, type UssdLanguage } from './texts.js';

export { resultJobPayload, USSD_RESULT_JOB, type PurchaseDeps } from './purchase-result.js';

export interface Buyer {
  userId: string;
  kycTier: number;
  phone: string;
}

const late = Symbol('late');

function withinBudget<T>(work: Promise<T>, ms: number): Promise<T | typeof late> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  return Promise.race([work, budget]).finally(() => clearTimeout(timer));
}

/** Claims the session's step for a purchase: false when it is claimed already (a gateway retry). */
async function claim(
  { db, clock }: PurchaseDeps,
  sessionId: string,
  step: number,
  buyer: Buyer,
  lang: UssdLanguage,
  summary: string,
): Promise<boolean> {
  const r = await one(
    db,
    sql`INSERT INTO ussd_purchases (session_id, step, user_id, phone, language, summary, created_at)
        VALUES (${sessionId}, ${step}, ${buyer.userId}, ${buyer.phone}, ${lang}, ${summary}, ${clock.now()})
        ON CONFLICT (session_id, step) DO NOTHING RETURNING 1`,
  );
  return Boolean(r);
}

/** Buys the order for the session's step: the screen that ends the session. */
export async function buy(
  deps: PurchaseDeps,
  sessionId: string,
  step: number,
  buyer: Buyer,
  order: Order,
  summary: string,
  lang: UssdLanguage,
): Promise<Screen> {
  const { db, clock, log, vtu, customers, config } = deps;
  const t = textsOf(lang);
  if (await customers.isFrozen(buyer.userId)) return end(t.frozen);
  if (!(await claim(deps, sessionId, step, buyer, lang, summary))) return end(t.willSms(summary));
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
      .then((tx) => settleLater(deps, sessionId, step, tx))
      .catch((err: unknown) => settleLater(deps, sessionId, step, err instanceof Error ? err : new Error(String(err))))
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
  if (outcome.status === 'processing') await lookLater(deps, sessionId, step, 0);
  return end(resultText(outcome, summary, t));
}

/**
 * A USSD purchase (docs/decisions.md, "USSD"): through vtu's one purchase path, channel 'ussd'. The session's step
 * is claimed first (ussd_purchases, keyed on sessionId + step), so a gateway retry of the step never buys again.
 * The purchase gets USSD_REPLY_MS to finish; a purchase still running then, or left processing by the provider,
 * ends the session with "we will SMS the result", and the result job sends it once the purchase is settled
 * (purchase-result.ts).
 */
export function createUssdPurchases(deps: PurchaseDeps) {
  return {
    buy: (sessionId: string, step: number, buyer: Buyer, order: Order, summary: string, lang: UssdLanguage) =>
      buy(deps, sessionId, step, buyer, order, summary, lang),
    lookAgain: (p: { sessionId: string; step: number; looks: number }) => lookAgain(deps, p),
  };
}
