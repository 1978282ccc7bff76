import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one } from '../../db/client.js';
import { MINUTE, SECOND } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { Network } from '../../kernel/phone.js';
import { profileOf } from '../identity/api.js';
import { readsFor, purchaseOf, refusalText, resultText, ussdLanguage, type Bought } from '../ussd/api.js';
import { assertRecipientNetwork } from '../vtu/api.js';
import type { PinAction, WhatsappDeps } from './deps.js';
import { waIdOf } from './links.js';
import { revealed } from './menu.js';
import { image, text } from './messages.js';
import { receiptUrl } from './receipt-url.js';
import { chatTexts } from './texts.js';

/** The job that sends a purchase's result to the chat once the provider settles it. */
export const WHATSAPP_RESULT_JOB = 'whatsapp.result';
const FIRST_LOOK_MS = 30 * SECOND;
const LONGEST_WAIT_MS = 30 * MINUTE;
const MAX_LOOKS = 60;

export const resultJobPayload = z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/), looks: z.number().int().min(0) });

export interface PinRequestRow {
  token_hash: string;
  phone: string;
  user_id: string;
  action: PinAction;
  summary: string;
  amount_kobo: string;
  language: string;
  state: 'waiting' | 'buying' | 'done';
  result: string | null;
  transaction_id: string | null;
  expires_at: Date | string;
}

/** Sends to the chat; a send that fails is logged (the result is kept and the PIN page shows it). */
async function say(deps: WhatsappDeps, phone: string, ...messages: Parameters<WhatsappDeps['sender']['send']>[1][]) {
  for (const m of messages) {
    try {
      await deps.sender.send(waIdOf(phone), m);
    } catch (err) {
      deps.log.warn({ err: (err as Error).message }, 'whatsapp: a message was not sent');
    }
  }
}

/** The result and, for a delivered purchase, its receipt image. */
async function tell(deps: WhatsappDeps, r: PinRequestRow, result: string, tx: Pick<Bought, 'id' | 'status'> | null) {
  const t = chatTexts(ussdLanguage(r.language));
  const receipt = tx?.status === 'success' ? [image(receiptUrl(deps.config, tx.id, deps.clock.now()), `${t.receipt}: ${r.summary}`)] : [];
  await say(deps, r.phone, text(result), ...receipt);
}

async function buy(deps: WhatsappDeps, r: PinRequestRow, order: Extract<PinAction, { kind: 'purchase' }>['order']) {
  const { vtu, db, log } = deps;
  const t = chatTexts(ussdLanguage(r.language)).menu;
  const profile = await profileOf(db, r.user_id);
  try {
    const { kind, input } = purchaseOf(order, r.phone);
    if (kind === 'airtime' || kind === 'data') assertRecipientNetwork(input.network as Network, String(input.phone), false);
    const tx = await vtu.purchase({ id: r.user_id, kycTier: profile?.kycTier ?? 0 }, kind, input, 'whatsapp');
    return { tx, result: tx.status === 'processing' ? chatTexts(ussdLanguage(r.language)).working : resultText(tx, r.summary, t) };
  } catch (err) {
    if (err instanceof AppError) log.info({ code: err.code, reason: err.message }, 'whatsapp purchase refused');
    else log.error({ err }, 'whatsapp purchase failed');
    return { tx: null, result: refusalText(err, t) };
  }
}

/** A claimed PIN request carried out: the purchase (or the balance or history shown), kept, told in the chat. */
export async function carryOut(deps: WhatsappDeps, r: PinRequestRow): Promise<string> {
  const { db, clock } = deps;
  const t = chatTexts(ussdLanguage(r.language));
  let result: string;
  let tx: Bought | null = null;
  if (r.action.kind === 'reveal') {
    result = await revealed(r.action.then, readsFor(deps, { userId: r.user_id, ownPhone: r.phone, recent: false }), t);
  } else {
    ({ tx, result } = await buy(deps, r, r.action.order));
  }
  const processing = tx?.status === 'processing';
  await db.execute(sql`UPDATE whatsapp_pin_requests SET state = 'done', result = ${result}, transaction_id = ${tx?.id ?? null},
                         notified_at = ${processing ? null : clock.now()} WHERE token_hash = ${r.token_hash}`);
  await tell(deps, r, result, tx);
  if (processing) await lookLater(deps, r.token_hash, 0);
  return result;
}

async function lookLater({ work }: Pick<WhatsappDeps, 'work'>, tokenHash: string, looks: number) {
  const delayMs = Math.min(FIRST_LOOK_MS * 2 ** looks, LONGEST_WAIT_MS);
  await work
    .change()
    .enqueue(WHATSAPP_RESULT_JOB, { tokenHash, looks }, { delayMs, singletonKey: `whatsapp:${tokenHash}:${looks}` })
    .commit();
}

/** The result job: a settled purchase's result and receipt go to the chat once (notified_at); else it looks again. */
export async function lookAgain(deps: WhatsappDeps, p: { tokenHash: string; looks: number }) {
  const r = await one<PinRequestRow>(
    deps.db,
    sql`SELECT token_hash, phone, user_id::text AS user_id, action, summary, amount_kobo::text AS amount_kobo, language, state, result,
               transaction_id::text AS transaction_id, expires_at
        FROM whatsapp_pin_requests WHERE token_hash = ${p.tokenHash} AND notified_at IS NULL`,
  );
  if (!r?.transaction_id) return;
  const tx = await deps.vtu.getMine(r.user_id, r.transaction_id);
  if (tx.status === 'processing') {
    if (p.looks + 1 < MAX_LOOKS) await lookLater(deps, p.tokenHash, p.looks + 1);
    return;
  }
  const result = resultText(tx, r.summary, chatTexts(ussdLanguage(r.language)).menu);
  const claimed = await one(
    deps.db,
    sql`UPDATE whatsapp_pin_requests SET notified_at = ${deps.clock.now()}, result = ${result}
        WHERE token_hash = ${p.tokenHash} AND notified_at IS NULL RETURNING 1 AS x`,
  );
  if (claimed) await tell(deps, r, result, tx);
}
