import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { notFound } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import { page } from '../../kernel/paging.js';
import { getProduct, PRODUCT_COLS, productView, type ProductRow } from './views.js';

/** The catalogue operators keep: products, their price, stock and whether they are on sale. */
export interface ProductDeps {
  db: Db;
  clock: Clock;
}

export async function createProduct(
  { db, clock }: ProductDeps,
  input: { name: string; description?: string | null; price: bigint; stock: number; active?: boolean },
) {
  const id = uuid();
  const now = clock.now();
  await db.execute(sql`INSERT INTO marketplace_products (id, name, description, price, stock, active, created_at, updated_at)
                       VALUES (${id}, ${input.name}, ${input.description ?? null}, ${input.price}, ${input.stock}, ${input.active ?? true}, ${now}, ${now})`);
  return productView((await getProduct(db, id))!);
}

/** Only the given fields change; stock is set absolutely (operators count the shelf), never below zero. */
export async function updateProduct(
  { db, clock }: ProductDeps,
  id: string,
  patch: { name?: string; description?: string | null; price?: bigint; stock?: number; active?: boolean },
) {
  const r = await one<ProductRow>(
    db,
    sql`UPDATE marketplace_products SET
          name = COALESCE(${patch.name ?? null}, name),
          description = CASE WHEN ${patch.description !== undefined} THEN ${patch.description ?? null} ELSE description END,
          price = COALESCE(${patch.price ?? null}::bigint, price),
          stock = COALESCE(${patch.stock ?? null}::integer, stock),
          active = COALESCE(${patch.active ?? null}::boolean, active),
          updated_at = ${clock.now()}
        WHERE id = ${id} RETURNING ${PRODUCT_COLS}`,
  );
  if (!r) throw notFound('Product');
  return productView(r);
}

export async function listProducts({ db }: ProductDeps, opts: { includeInactive: boolean; limit: number; offset: number }) {
  const list = await rows<ProductRow>(
    db,
    sql`SELECT ${PRODUCT_COLS} FROM marketplace_products WHERE (${opts.includeInactive} OR active)
        ORDER BY created_at DESC, id DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
  );
  return page(list.map(productView), opts.limit, opts.offset);
}
