import { sql, type SQL } from 'drizzle-orm';
import { one, type Db, type Executor, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { NotificationInput } from '../notifications/api.js';
import { refundPosting, settlePosting } from './money.js';

/**
 * The one order state machine of marketplace and subscription orders. An operator moves an order along the
 * allowed transitions; the conditional UPDATE on the current status lets exactly one of several concurrent
 * decisions win, and the money leg it implies (settle to revenue, or refund to the wallet, each with a ledger
 * reference derived from the order's, so it posts once) happens in the same transaction, with the audit row and
 * the customer's notification.
 */
export interface OrderRowBase {
  id: string;
  reference: string;
  user_id: string;
  amount: string;
  status: string;
}

export interface OrderKind<Status extends string, Row extends OrderRowBase> {
  /** The orders table and the audit subject type. */
  table: 'marketplace_orders' | 'subscription_orders';
  subject: 'marketplace_order' | 'subscription_order';
  /** For "<label> not found". */
  label: string;
  columns: SQL;
  transitions: Record<Status, readonly Status[]>;
  /** What reaching a status does with the held money. */
  money: (to: Status) => 'settle' | 'refund' | null;
  /** The ledger descriptions of the money legs. */
  describe: (row: Row, to: Status) => string;
  conflict: (current: string, to: Status) => string;
  /** Work of the same transaction after a refund (stock back on the shelf). */
  afterRefund?: (tx: Tx, row: Row) => Promise<void>;
  /** The customer's notice, or null when this move tells them nothing. */
  notice: (row: Row, to: Status, note: string | undefined) => Omit<NotificationInput, 'userId' | 'kind' | 'data'> | null;
}

export function createOrderTransitions(deps: { db: Db; work: Work; clock: Clock }) {
  return async function transition<Status extends string, Row extends OrderRowBase>(
    kind: OrderKind<Status, Row>,
    actorId: string,
    input: { id: string; status: Status; note?: string },
  ): Promise<Row> {
    const { db, work, clock } = deps;
    const from = (Object.keys(kind.transitions) as Status[]).filter((s) => kind.transitions[s].includes(input.status));
    const table = sql.raw(kind.table);
    return db.transaction(async (tx: Tx) => {
      const o = from.length
        ? await one<Row>(
            tx,
            sql`UPDATE ${table} SET status = ${input.status}, note = COALESCE(${input.note ?? null}, note), updated_at = ${clock.now()}
                WHERE id = ${input.id} AND status IN ${from} RETURNING ${kind.columns}`,
          )
        : undefined;
      if (!o) {
        const existing = await current(tx, kind, input.id);
        if (!existing) throw notFound(kind.label);
        throw new AppError('CONFLICT', kind.conflict(existing.status, input.status));
      }
      // One change: the money leg the status implies and the customer's notice.
      const amount = BigInt(o.amount);
      const description = kind.describe(o, input.status);
      const leg = kind.money(input.status);
      const change = work.change(tx);
      if (leg === 'refund') change.post(refundPosting({ userId: o.user_id, amount, reference: o.reference, description }));
      else if (leg === 'settle') change.post(settlePosting({ amount, reference: o.reference, description }));
      const notice = kind.notice(o, input.status, input.note);
      if (notice) {
        change.notify({
          userId: o.user_id,
          kind: 'order_update',
          ...notice,
          data: { orderId: o.id, reference: o.reference, status: input.status },
        });
      }
      await change.commit();
      if (leg === 'refund') await kind.afterRefund?.(tx, o);
      return o;
    });
  };
}

function current(exec: Executor, kind: { table: string; columns: SQL }, id: string) {
  return one<OrderRowBase>(exec, sql`SELECT ${kind.columns} FROM ${sql.raw(kind.table)} WHERE id = ${id}`);
}

export type OrderTransitions = ReturnType<typeof createOrderTransitions>;
