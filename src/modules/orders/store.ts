import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/paging.js';
import type { OrderRowBase } from './transition.js';

/**
 * The reads every kind of order has: by id, the customer's own list and one of their orders (another customer's
 * is NOT_FOUND, never FORBIDDEN: docs/design.md §4), and the operators' list; newest first, filtered by status (and user).
 */
export function createOrderStore<Row extends OrderRowBase, View>(
  db: Db,
  kind: { table: 'marketplace_orders' | 'subscription_orders'; columns: SQL; label: string },
  view: (row: Row) => View,
) {
  const table = sql.raw(kind.table);
  const get = (exec: Executor, id: string) => one<Row>(exec, sql`SELECT ${kind.columns} FROM ${table} WHERE id = ${id}`);
  return {
    get,

    async listMine(userId: string, opts: { status?: string; limit: number; offset: number }) {
      const list = await rows<Row>(
        db,
        sql`SELECT ${kind.columns} FROM ${table} WHERE user_id = ${userId} AND (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
            ORDER BY created_at DESC, seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      return page(list.map(view), opts.limit, opts.offset);
    },

    async getMine(userId: string, id: string) {
      const o = await get(db, id);
      if (!o || o.user_id !== userId) throw notFound(kind.label);
      return view(o);
    },

    async adminList(opts: { status?: string; userId?: string; limit: number; offset: number }) {
      const list = await rows<Row>(
        db,
        sql`SELECT ${kind.columns} FROM ${table}
            WHERE (${opts.status ?? null}::text IS NULL OR status = ${opts.status ?? null})
              AND (${opts.userId ?? null}::uuid IS NULL OR user_id = ${opts.userId ?? null}::uuid)
            ORDER BY created_at DESC, seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
      );
      return page(
        list.map((o) => ({ ...view(o), userId: o.user_id })),
        opts.limit,
        opts.offset,
      );
    },
  };
}
