import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import type { RowOf } from '../../db/rows.js';
import { decrypt } from '../../lib/crypto.js';
import type { EpinsDeps } from './deps.js';
import { LOAD_CODES, type EpinNetwork } from './inputs.js';
import type { epinBatches } from './schema.js';

export type BatchRow = RowOf<typeof epinBatches> & { sold: string };
export type BatchStatus = 'processing' | 'delivered' | 'partial' | 'failed';

const BATCH_COLUMNS = sql`b.id, b.user_id::text AS user_id, b.network, b.denomination::text AS denomination, b.quantity, b.unit_price::text AS unit_price,
  b.unit_wholesale::text AS unit_wholesale, b.amount::text AS amount, b.price_level, b.business_name, b.status, b.delivered,
  b.refunded::text AS refunded, b.failure_reason, b.created_at, b.settled_at,
  (SELECT count(*) FROM epin_cards c WHERE c.batch_id = b.id AND c.sold_at IS NOT NULL)::text AS sold`;

/** A batch as its buyer sees it (naira); `paid` is what the wallet paid less what came back. */
export function batchView(b: BatchRow) {
  const amount = BigInt(b.amount);
  const refunded = BigInt(b.refunded);
  return {
    id: b.id,
    network: b.network as EpinNetwork,
    denomination: toNaira(b.denomination),
    quantity: Number(b.quantity),
    delivered: Number(b.delivered),
    sold: Number(b.sold),
    status: b.status as BatchStatus,
    unitPrice: toNaira(b.unit_price),
    amount: toNaira(amount),
    refunded: toNaira(refunded),
    paid: toNaira(amount - refunded),
    priceLevel: b.price_level,
    businessName: b.business_name,
    loadCode: LOAD_CODES[b.network as EpinNetwork],
    failureReason: b.failure_reason,
    createdAt: new Date(b.created_at).toISOString(),
    settledAt: b.settled_at ? new Date(b.settled_at).toISOString() : null,
  };
}
export type BatchView = ReturnType<typeof batchView>;

/** The caller's batch; another person's (or none) is NOT_FOUND. */
export async function getBatch(deps: { db: Executor }, userId: string, id: string): Promise<BatchRow> {
  const b = await one<BatchRow>(deps.db, sql`SELECT ${BATCH_COLUMNS} FROM epin_batches b WHERE b.id = ${id} AND b.user_id = ${userId}`);
  if (!b) throw new AppError('NOT_FOUND', 'No such batch of recharge cards');
  return b;
}

export async function listBatches(deps: Pick<EpinsDeps, 'db'>, userId: string, p: { limit: number; offset: number }) {
  const list = await rows<BatchRow>(
    deps.db,
    sql`SELECT ${BATCH_COLUMNS} FROM epin_batches b WHERE b.user_id = ${userId}
        ORDER BY b.created_at DESC, b.id DESC LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
  );
  const out = page(list, p.limit, p.offset);
  return { ...out, items: out.items.map(batchView) };
}

export interface Card {
  seq: number;
  serial: string;
  pin: string;
  soldAt: string | null;
}

/** The batch's cards with their PINs decrypted: for its buyer only (the batch is read by its owner first). */
export async function cardsOf(deps: Pick<EpinsDeps, 'db' | 'secretKey'>, batchId: string): Promise<Card[]> {
  const list = await rows<{ seq: number; serial: string; pin_encrypted: string; sold_at: Date | null }>(
    deps.db,
    sql`SELECT seq, serial, pin_encrypted, sold_at FROM epin_cards WHERE batch_id = ${batchId} ORDER BY seq`,
  );
  return list.map((c) => ({
    seq: Number(c.seq),
    serial: c.serial,
    pin: decrypt(deps.secretKey, c.pin_encrypted),
    soldAt: c.sold_at ? new Date(c.sold_at).toISOString() : null,
  }));
}
