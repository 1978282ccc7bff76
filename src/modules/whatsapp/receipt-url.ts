import type { Config } from '../../config.js';
import { DAY } from '../../kernel/clock.js';
import { hmac, safeEqual } from '../../lib/crypto.js';

/**
 * The receipt image's address (docs/decisions.md, "WhatsApp: receipts as images"): the Cloud API fetches the image
 * from a link, so the link is its own credential: the purchase's id, an expiry (7 days) and an HMAC of both under
 * FILE_SIGNING_SECRET. Nothing else names a receipt: an id alone, or a changed expiry, is refused.
 */
export const RECEIPT_IMAGE_PATH = '/api/public/whatsapp/receipts';
const LIFETIME_MS = 7 * DAY;

const signatureOf = (config: Config, id: string, exp: number) =>
  hmac(config.secrets.fileSigningSecret, `whatsapp-receipt:${id}:${exp}`).slice(0, 40);

export function receiptUrl(config: Config, transactionId: string, now: Date): string {
  const exp = Math.floor((now.getTime() + LIFETIME_MS) / 1000);
  return `${config.publicUrl}${RECEIPT_IMAGE_PATH}/${transactionId}.${exp}.${signatureOf(config, transactionId, exp)}.png`;
}

/** The purchase id a receipt file name signs, or null (a bad signature, an expired link, a malformed name). */
export function receiptIdOf(config: Config, file: string, now: Date): string | null {
  const m = /^([0-9a-f-]{36})\.(\d{1,12})\.([0-9a-f]{40})\.png$/.exec(file);
  if (!m) return null;
  const [, id, exp, sig] = m as unknown as [string, string, string, string];
  if (!safeEqual(sig, signatureOf(config, id, Number(exp)))) return null;
  return Number(exp) * 1000 > now.getTime() ? id : null;
}
