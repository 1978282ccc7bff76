import type { subscriptionOrders as subscriptionOrdersTable } from './schema.js';
import type { subscriptionPlans } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Work } from '../../platform/change.js';
import type { Clock } from '../../kernel/clock.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { WalletLimits } from '../wallet/api.js';
import { holdOrderMoney } from '../orders/api.js';
import { createOrderStore } from '../orders/api.js';
import { createOrderTransitions, type OrderKind } from '../orders/api.js';

export type SubscriptionStatus = 'pending' | 'processing' | 'fulfilled' | 'failed' | 'cancelled';

/**
 * Allowed operator moves. pending -> processing marks the order as being worked on; fulfilled settles the
 * held money to revenue; failed and cancelled refund it. Terminal states never move again.
 */
export const SUBSCRIPTION_TRANSITIONS: Record<SubscriptionStatus, SubscriptionStatus[]> = {
  pending: ['processing', 'fulfilled', 'failed', 'cancelled'],
  processing: ['fulfilled', 'failed'],
  fulfilled: [],
  failed: [],
  cancelled: [],
};

type PlanRow = Narrowed<
  Pick<RowOf<typeof subscriptionPlans>, 'id' | 'service' | 'category' | 'name' | 'price' | 'active' | 'created_at' | 'updated_at'>,
  { category: 'streaming' | 'social' }
>;

type OrderRow = Narrowed<
  Pick<
    RowOf<typeof subscriptionOrdersTable>,
    | 'id'
    | 'reference'
    | 'user_id'
    | 'plan_id'
    | 'service'
    | 'category'
    | 'plan_name'
    | 'account'
    | 'amount'
    | 'status'
    | 'note'
    | 'created_at'
    | 'updated_at'
  >,
  { status: SubscriptionStatus }
>;

const PLAN_COLS = sql.raw(`id::text AS id, service, category, name, price::text AS price, active, created_at, updated_at`);
const ORDER_COLS = sql.raw(
  `id::text AS id, reference, user_id::text AS user_id, plan_id::text AS plan_id, service, category, plan_name, account,
   amount::text AS amount, status, note, created_at, updated_at`,
);

export function planView(p: PlanRow) {
  return {
    id: p.id,
    service: p.service,
    category: p.category,
    name: p.name,
    price: toNaira(p.price),
    active: p.active,
    createdAt: new Date(p.created_at).toISOString(),
    updatedAt: new Date(p.updated_at).toISOString(),
  };
}

export function subscriptionOrderView(o: OrderRow) {
  return {
    id: o.id,
    reference: o.reference,
    planId: o.plan_id,
    service: o.service,
    category: o.category,
    planName: o.plan_name,
    account: o.account,
    amount: toNaira(o.amount),
    status: o.status,
    note: o.note,
    createdAt: new Date(o.created_at).toISOString(),
    updatedAt: new Date(o.updated_at).toISOString(),
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;

const subscriptionOrders: OrderKind<SubscriptionStatus, OrderRow> = {
  table: 'subscription_orders',
  subject: 'subscription_order',
  label: 'Subscription order',
  columns: ORDER_COLS,
  transitions: SUBSCRIPTION_TRANSITIONS,
  money: (to) => (to === 'failed' || to === 'cancelled' ? 'refund' : to === 'fulfilled' ? 'settle' : null),
  describe: (o, to) =>
    to === 'fulfilled' ? `Subscription order ${o.reference} fulfilled` : `Refund: subscription order ${o.reference} ${to}`,
  conflict: (current, to) => `Order is ${current}; it cannot become ${to}`,
  notice: (o, to, note) => {
    if (to === 'processing' || to === 'pending') return null;
    const refunded = to !== 'fulfilled';
    return {
      title: refunded ? `Subscription order ${to}` : 'Subscription activated',
      body: refunded
        ? `Your ${o.service} ${o.plan_name} order could not be completed; ${formatNaira(BigInt(o.amount))} was refunded to your wallet.${note ? ` ${note}` : ''}`
        : `Your ${o.service} ${o.plan_name} order for ${o.account} has been fulfilled.`,
    };
  },
};

export function createSubscriptionService(deps: { db: Db; clock: Clock; work: Work; walletLimits: WalletLimits }) {
  const { db, clock } = deps;
  const transition = createOrderTransitions(deps);
  const getPlan = (exec: Executor, id: string) => one<PlanRow>(exec, sql`SELECT ${PLAN_COLS} FROM subscription_plans WHERE id = ${id}`);
  const store = createOrderStore(db, subscriptionOrders, subscriptionOrderView);
  const getOrder = store.get;

  return {
    async createPlan(input: { service: string; category: 'streaming' | 'social'; name: string; price: bigint; active?: boolean }) {
      const id = uuid();
      const now = clock.now();
      await db.execute(sql`INSERT INTO subscription_plans (id, service, category, name, price, active, created_at, updated_at)
                           VALUES (${id}, ${input.service}, ${input.category}, ${input.name}, ${input.price}, ${input.active ?? true}, ${now}, ${now})`);
      return planView((await getPlan(db, id))!);
    },

    async updatePlan(id: string, patch: { name?: string; price?: bigint; active?: boolean }) {
      const r = await one<PlanRow>(
        db,
        sql`UPDATE subscription_plans SET name = COALESCE(${patch.name ?? null}, name), price = COALESCE(${patch.price ?? null}::bigint, price),
              active = COALESCE(${patch.active ?? null}::boolean, active), updated_at = ${clock.now()}
            WHERE id = ${id} RETURNING ${PLAN_COLS}`,
      );
      if (!r) throw notFound('Plan');
      return planView(r);
    },

    async listPlans(opts: { includeInactive: boolean; category?: string; service?: string }) {
      const list = await rows<PlanRow>(
        db,
        sql`SELECT ${PLAN_COLS} FROM subscription_plans
            WHERE (${opts.includeInactive} OR active) AND (${opts.category ?? null}::text IS NULL OR category = ${opts.category ?? null})
              AND (${opts.service ?? null}::text IS NULL OR service = ${opts.service ?? null})
            ORDER BY category, service, price, id LIMIT 500`,
      );
      return { items: list.map(planView) };
    },

    /** Debits the wallet into the `orders` hold; an operator fulfils it or it is refunded (spec 5.4: PIN gate). */
    async submit(user: { id: string; kycTier: number }, input: { planId: string; account: string; amount?: bigint }) {
      return db.transaction(async (tx) => {
        const plan = await getPlan(tx, input.planId);
        if (!plan) throw notFound('Plan');
        if (!plan.active) throw new AppError('CONFLICT', 'This plan is not available any more');
        const amount = BigInt(plan.price);
        if (input.amount !== undefined && input.amount !== amount) {
          throw new AppError('PRICE_CHANGED', `${plan.name} now costs ${formatNaira(amount)}; confirm the new price`);
        }
        const id = uuid();
        const now = clock.now();
        const reference = prefixedId('sub', now.getTime());
        await tx.execute(sql`INSERT INTO subscription_orders (id, reference, user_id, plan_id, service, category, plan_name, account, amount, status, created_at, updated_at)
                             VALUES (${id}, ${reference}, ${user.id}, ${plan.id}, ${plan.service}, ${plan.category}, ${plan.name}, ${input.account}, ${amount}, 'pending', ${now}, ${now})`);
        await holdOrderMoney(deps, tx, {
          userId: user.id,
          kycTier: user.kycTier,
          amount,
          reference,
          type: 'subscription_order',
          description: `Subscription order: ${plan.service} ${plan.name}`,
        });
        return subscriptionOrderView((await getOrder(tx, id))!);
      });
    },

    listMine: store.listMine,
    getMine: store.getMine,
    adminList: store.adminList,

    /** Through the orders' state machine (orders/transition.ts): races decided by the status, legs posted once. */
    async adminUpdate(actorId: string, input: { id: string; status: 'processing' | 'fulfilled' | 'failed' | 'cancelled'; note?: string }) {
      const o = await transition(subscriptionOrders, actorId, input);
      return { ...subscriptionOrderView(o), userId: o.user_id };
    },
  };
}
