import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import { canonicalJson, type ReceiptKey } from './keys.js';
import { findCallerTransaction } from './source.js';

const NEEDLE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const NEEDLE_LENGTH = 12;
export const NEEDLE_RE = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{12}$/;

/** 12 Crockford base32 characters: 60 random bits, short enough to read out, too many to guess. */
function newNeedle(): string {
  const bytes = randomBytes(NEEDLE_LENGTH);
  let s = '';
  for (let i = 0; i < NEEDLE_LENGTH; i++) s += NEEDLE_ALPHABET[bytes[i] % 32];
  return s;
}

export interface Receipt {
  version: 1;
  needle: string;
  issuer: string;
  keyId: string;
  reference: string;
  type: string;
  description: string;
  direction: 'debit' | 'credit';
  /** Decimal string in naira ("1500.00"): signed documents avoid floating-point formatting differences. */
  amount: string;
  currency: 'NGN';
  status: string;
  transactionAt: string;
  issuedAt: string;
  service?: string;
  recipient?: string;
  network?: string;
  planId?: string;
  product?: string;
  /** A service kind's own lines (an eSIM's ICCID, a flight's PNR); `mask` lines are masked on the public page. */
  lines?: { label: string; value: string; mask?: boolean }[];
}

const koboToDecimal = (k: bigint) => {
  const a = k < 0n ? -k : k;
  return `${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
};

/** Phone numbers keep their prefix and last three digits; other identifiers their first and last two characters. */
export function maskIdentifier(v: string): string {
  if (/^0\d{10}$/.test(v)) return `${v.slice(0, 4)}****${v.slice(-3)}`;
  if (v.length <= 4) return '****';
  if (v.length <= 7) return `${v.slice(0, 1)}****${v.slice(-1)}`;
  return `${v.slice(0, 2)}${'*'.repeat(Math.min(8, v.length - 4))}${v.slice(-2)}`;
}

export function maskReceipt(r: Receipt): Receipt {
  const out: Receipt = { ...r };
  if (r.recipient) out.recipient = maskIdentifier(r.recipient);
  if (r.lines) out.lines = r.lines.map((l) => (l.mask ? { ...l, value: maskIdentifier(l.value) } : l));
  // Descriptions often name the recipient ("Airtime for 0803..."): hide any long digit run or e-mail.
  out.description = r.description.replace(/\d{7,}/g, (m) => maskIdentifier(m)).replace(/[^\s@]+@[^\s@]+/g, (m) => maskIdentifier(m));
  return out;
}

export type ReceiptService = ReturnType<typeof createReceiptService>;

export function createReceiptService({ db, clock, key, issuer }: { db: Db; clock: Clock; key: ReceiptKey; issuer: string }) {
  const existing = (userId: string, reference: string) =>
    one<{ needle: string; payload: Receipt; signature: string }>(
      db,
      sql`SELECT needle, payload, signature FROM receipts WHERE user_id = ${userId} AND reference = ${reference}`,
    );

  return {
    key,

    /** One receipt per transaction: signing again returns the same needle and signature. */
    async sign(userId: string, given: string): Promise<{ needle: string; receipt: Receipt; signature: string }> {
      const t = await findCallerTransaction(db, userId, given);
      if (!t) throw notFound('Transaction');
      if (t.vtu && t.vtu.status !== 'success') {
        throw new AppError(
          'CONFLICT',
          t.vtu.status === 'processing'
            ? 'This purchase is still processing; a receipt is available once it completes'
            : 'This purchase failed and was refunded; it has no receipt',
        );
      }
      const found = await existing(userId, t.reference);
      if (found) return { needle: found.needle, receipt: found.payload, signature: found.signature };

      for (let attempt = 0; attempt < 3; attempt++) {
        const needle = newNeedle();
        const amount = t.vtu ? t.vtu.amount : t.walletAmount;
        const receipt: Receipt = {
          version: 1,
          needle,
          issuer,
          keyId: key.keyId,
          reference: t.reference,
          type: t.type,
          description: t.description,
          direction: t.vtu || t.walletAmount < 0n ? 'debit' : 'credit',
          amount: koboToDecimal(amount),
          currency: 'NGN',
          status: t.vtu ? t.vtu.status : 'completed',
          transactionAt: t.createdAt.toISOString(),
          issuedAt: clock.now().toISOString(),
          ...(t.vtu
            ? {
                service: t.vtu.service,
                recipient: t.vtu.recipient,
                ...(t.vtu.network ? { network: t.vtu.network } : {}),
                ...(t.vtu.planId ? { planId: t.vtu.planId } : {}),
                ...(t.vtu.product ? { product: t.vtu.product } : {}),
                ...(t.vtu.lines.length ? { lines: t.vtu.lines } : {}),
              }
            : {}),
        };
        const signature = key.sign(Buffer.from(canonicalJson(receipt)));
        const inserted = await one<{ id: string }>(
          db,
          sql`INSERT INTO receipts (id, needle, user_id, reference, payload, signature, key_id, created_at)
              VALUES (${uuid()}, ${needle}, ${userId}, ${t.reference}, ${JSON.stringify(receipt)}::jsonb, ${signature}, ${key.keyId}, ${clock.now()})
              ON CONFLICT DO NOTHING RETURNING id::text AS id`,
        );
        if (inserted) return { needle, receipt, signature };
        // Either a concurrent sign of the same transaction won (return it) or the needle collided (try another).
        const raced = await existing(userId, t.reference);
        if (raced) return { needle: raced.needle, receipt: raced.payload, signature: raced.signature };
      }
      throw new Error('could not allocate a receipt needle');
    },

    /** Public lookup: the masked receipt and whether its stored signature holds under the published key. */
    async verify(needle: string): Promise<{ valid: boolean; receipt: Receipt; keyId: string }> {
      const r = await one<{ payload: Receipt; signature: string; key_id: string }>(
        db,
        sql`SELECT payload, signature, key_id FROM receipts WHERE needle = ${needle}`,
      );
      if (!r) throw notFound('Receipt');
      const valid = r.key_id === key.keyId && r.payload.needle === needle && key.verify(Buffer.from(canonicalJson(r.payload)), r.signature);
      return { valid, receipt: maskReceipt(r.payload), keyId: r.key_id };
    },
  };
}
