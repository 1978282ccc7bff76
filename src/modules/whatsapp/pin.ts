import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { ussdLanguage, type UssdLanguage } from '../ussd/api.js';
import { PIN_LINK_TTL_MS, type Caller, type PinAction, type WhatsappDeps } from './deps.js';
import { carryOut, type PinRequestRow } from './purchase.js';
import { chatTexts } from './texts.js';

/**
 * The one-time PIN link (docs/decisions.md, "WhatsApp: the PIN on a page"): the chat sends {PUBLIC_URL}/whatsapp/pin/
 * <token>; the token (24 random bytes) is kept as its SHA-256, lives 10 minutes and confirms one action once. The PIN
 * is checked by identity's PinService, so its tries and lock are the app's. A claimed token (waiting -> buying) is
 * carried out once whatever is replayed; a replay answers the stored result.
 */
export const pinPagePath = (token: string) => `/whatsapp/pin/${token}`;

export async function createPinRequest(
  { db, clock, config }: Pick<WhatsappDeps, 'db' | 'clock' | 'config'>,
  caller: Caller,
  action: PinAction,
  summary: string,
  totalNaira: number,
  lang: UssdLanguage,
): Promise<string> {
  const token = randomToken(24);
  const now = clock.now();
  await db.execute(sql`INSERT INTO whatsapp_pin_requests
      (token_hash, phone, user_id, action, summary, amount_kobo, language, state, expires_at, created_at)
      VALUES (${sha256(token)}, ${caller.phone}, ${caller.userId}, ${JSON.stringify(action)}::jsonb, ${summary},
              ${Math.round(totalNaira * 100)}, ${lang}, 'waiting', ${new Date(now.getTime() + PIN_LINK_TTL_MS)}, ${now})`);
  return `${config.publicUrl}${pinPagePath(token)}`;
}

const load = (db: WhatsappDeps['db'], token: string) =>
  one<PinRequestRow>(
    db,
    sql`SELECT token_hash, phone, user_id::text AS user_id, action, summary, amount_kobo::text AS amount_kobo, language, state, result,
               transaction_id::text AS transaction_id, expires_at
        FROM whatsapp_pin_requests WHERE token_hash = ${sha256(token)}`,
  );

const notFound = () => new AppError('NOT_FOUND', 'This PIN link is not valid. Start again in WhatsApp.');

type Shown = 'waiting' | 'done' | 'expired';
function stateOf(r: PinRequestRow, now: Date): Shown {
  if (r.state !== 'waiting') return 'done';
  return new Date(r.expires_at) <= now ? 'expired' : 'waiting';
}

/** What the PIN page shows before the PIN: what is confirmed, the total, until when. */
export async function getPinRequest({ db, clock }: Pick<WhatsappDeps, 'db' | 'clock'>, token: string) {
  const r = await load(db, token);
  if (!r) throw notFound();
  return {
    summary: r.summary,
    amountKobo: Number(r.amount_kobo),
    expiresAt: new Date(r.expires_at).toISOString(),
    state: stateOf(r, clock.now()),
  };
}

/** The PIN for the token: the action carried out once, its result (a replay gets the same result, buys nothing). */
export async function confirmPin(deps: WhatsappDeps, token: string, pin: string): Promise<{ state: 'done'; result: string }> {
  const { db, clock, pins, customers } = deps;
  const r = await load(db, token);
  if (!r) throw notFound();
  if (r.state !== 'waiting') return { state: 'done', result: r.result ?? busyText(r) };
  if (new Date(r.expires_at) <= clock.now()) throw new AppError('CONFLICT', 'This PIN link has expired. Start again in WhatsApp.');
  if (await customers.isFrozen(r.user_id)) throw new AppError('ACCOUNT_FROZEN', 'Your account is on hold. Contact support.');
  // Wrong: 400 INVALID_PIN with the tries left; too many: 423 PIN_LOCKED, the app's own count and lock.
  await pins.verify(r.user_id, 'transaction', pin);
  const claimed = await one(
    db,
    sql`UPDATE whatsapp_pin_requests SET state = 'buying' WHERE token_hash = ${r.token_hash} AND state = 'waiting'
          AND expires_at > ${clock.now()} RETURNING 1 AS x`,
  );
  if (!claimed) {
    const again = await load(db, token);
    if (!again || again.state === 'waiting') throw new AppError('CONFLICT', 'This PIN link has expired. Start again in WhatsApp.');
    return { state: 'done', result: again.result ?? busyText(again) };
  }
  return { state: 'done', result: await carryOut(deps, r) };
}

const busyText = (r: PinRequestRow) => chatTexts(ussdLanguage(r.language)).working;
