import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { MINUTE, SECOND } from '../../kernel/clock.js';
import type { Services } from '../../platform/services.js';
import { textsOf, ussdLanguage, type UssdTexts } from './texts.js';

/** The job that sends a USSD purchase's result by SMS once the purchase is settled (purchase.ts). */
export const USSD_RESULT_JOB = 'ussd.result';
/** The result job looks again after 30 s, doubling to 30 min, and stops after a day. */
const FIRST_LOOK_MS = 30 * SECOND;
const LONGEST_WAIT_MS = 30 * MINUTE;
const MAX_LOOKS = 60;

export type PurchaseDeps = Pick<Services, 'db' | 'clock' | 'log' | 'work' | 'vtu' | 'outbox' | 'customers' | 'config'>;

export type Bought = Awaited<ReturnType<Services['vtu']['purchase']>>;

/** What a refused purchase says, by its error. */
export function refusalText(err: unknown, t: UssdTexts): string {
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
export function resultText(tx: Pick<Bought, 'status' | 'reference'> & { token?: string }, summary: string, t: UssdTexts): string {
  if (tx.status === 'failed') return t.failed(summary);
  if (tx.status === 'success') return t.delivered(tx.token ? `${summary} Token ${tx.token}` : summary, tx.reference);
  return t.willSms(summary);
}

/** Keeps the purchase's id; a settled one has its result sent by SMS, a processing one is looked at later. */
export async function settleLater(deps: PurchaseDeps, sessionId: string, step: number, outcome: Bought | AppError | Error) {
  if (outcome instanceof Error) return smsNow(deps, sessionId, step, outcome);
  await deps.db.execute(sql`UPDATE ussd_purchases SET transaction_id = ${outcome.id} WHERE session_id = ${sessionId} AND step = ${step}`);
  if (outcome.status === 'processing') return lookLater(deps, sessionId, step, 0);
  return smsNow(deps, sessionId, step, outcome);
}

/** Enqueues the result job's next look, backed off by the looks so far. */
export async function lookLater({ work }: PurchaseDeps, sessionId: string, step: number, looks: number) {
  const delayMs = Math.min(FIRST_LOOK_MS * 2 ** looks, LONGEST_WAIT_MS);
  await work
    .change()
    .enqueue(USSD_RESULT_JOB, { sessionId, step, looks }, { delayMs, singletonKey: `ussd:${sessionId}:${step}:${looks}` })
    .commit();
}

/** The result by SMS to the caller, once (notified_at, and the outbox's dedupe key). */
async function smsNow(
  { db, clock, outbox }: PurchaseDeps,
  sessionId: string,
  step: number,
  outcome: (Pick<Bought, 'status' | 'reference'> & { token?: string }) | Error,
) {
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

/** The result job: the purchase settled sends its SMS; still processing, it looks again later. */
export async function lookAgain(deps: PurchaseDeps, p: { sessionId: string; step: number; looks: number }) {
  const row = await one<{ user_id: string; transaction_id: string | null }>(
    deps.db,
    sql`SELECT user_id::text AS user_id, transaction_id::text AS transaction_id FROM ussd_purchases
        WHERE session_id = ${p.sessionId} AND step = ${p.step} AND notified_at IS NULL`,
  );
  if (!row?.transaction_id) return;
  const tx = await deps.vtu.getMine(row.user_id, row.transaction_id);
  if (tx.status !== 'processing') return smsNow(deps, p.sessionId, p.step, tx);
  if (p.looks + 1 < MAX_LOOKS) await lookLater(deps, p.sessionId, p.step, p.looks + 1);
}

export const resultJobPayload = z.object({
  sessionId: z.string().min(1).max(200),
  step: z.number().int().min(0),
  looks: z.number().int().min(0),
});
