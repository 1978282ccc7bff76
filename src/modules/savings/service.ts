import type { savingsLocks as savingsLocksTable } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import { DAY, HOUR, type Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import { uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import type { Notifier } from '../notifications/api.js';
import { applyBps, iso } from '../growth/api.js';
import { bps, type GrowthSettingsStore } from '../growth/api.js';

export type SavingsService = ReturnType<typeof createSavingsService>;

type LockRow = Narrowed<
  Pick<
    RowOf<typeof savingsLocksTable>,
    | 'id'
    | 'principal_kobo'
    | 'days'
    | 'rate_bps'
    | 'break_fee_bps'
    | 'interest_kobo'
    | 'status'
    | 'payout_kobo'
    | 'fee_kobo'
    | 'created_at'
    | 'matures_at'
    | 'closed_at'
  >,
  { status: 'active' | 'matured' | 'broken' }
>;

const LOCK_COLUMNS =
  sql.raw(`id::text AS id, principal_kobo::text AS principal_kobo, days, rate_bps, break_fee_bps, interest_kobo::text AS interest_kobo,
  status, payout_kobo::text AS payout_kobo, fee_kobo::text AS fee_kobo, created_at, matures_at, closed_at`);

function present(r: LockRow) {
  return {
    id: r.id,
    amount: toNaira(r.principal_kobo),
    days: r.days,
    interestRatePct: r.rate_bps / 100,
    interest: toNaira(r.interest_kobo),
    breakFeePct: r.break_fee_bps / 100,
    status: r.status,
    payout: r.payout_kobo === null ? null : toNaira(r.payout_kobo),
    fee: r.fee_kobo === null ? null : toNaira(r.fee_kobo),
    createdAt: iso(r.created_at)!,
    maturesAt: iso(r.matures_at)!,
    closedAt: iso(r.closed_at),
  };
}

/** Simple interest for the locked days on a 365-day year, rounded down to the kobo. */
export function savingsInterest(principal: bigint, rateBps: bigint, days: number): bigint {
  return (principal * rateBps * BigInt(days)) / (10_000n * 365n);
}

export function createSavingsService(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  work: Work;
  notifier: Notifier;
  jobs: JobQueue;
  settings: GrowthSettingsStore;
}) {
  const { db, clock, ledger, work, notifier, jobs, settings } = deps;

  /** Pays principal plus interest once; the status update is the "exactly once" guard. */
  async function matureInTx(tx: Tx, lockId: string): Promise<boolean> {
    const now = clock.now();
    const r = await one<LockRow & { user_id: string }>(
      tx,
      sql`UPDATE savings_locks SET status = 'matured', closed_at = ${now}, payout_kobo = principal_kobo + interest_kobo, fee_kobo = 0
          WHERE id = ${lockId} AND status = 'active' AND matures_at <= ${now} RETURNING ${LOCK_COLUMNS}, user_id::text AS user_id`,
    );
    if (!r) return false;
    const principal = BigInt(r.principal_kobo);
    const interest = BigInt(r.interest_kobo);
    const reference = `sav_mature_${r.id}`;
    await ledger.post(tx, {
      reference,
      type: 'savings_matured',
      description: `Savings lock matured (${r.days} days)`,
      entries: [
        { account: { user: r.user_id, kind: 'savings' }, amount: -principal },
        { account: { user: r.user_id, kind: 'wallet' }, amount: principal + interest },
        ...(interest > 0n ? [{ account: { system: 'interest_expense' as const }, amount: -interest }] : []),
      ],
    });
    await notifier.emit(tx, {
      userId: r.user_id,
      kind: 'savings_matured',
      title: 'Savings lock matured',
      body: `${formatNaira(principal + interest)} (${formatNaira(interest)} interest) is back in your wallet.`,
      data: { lockId: r.id, total: toNaira(principal + interest), interest: toNaira(interest) },
    });
    await work
      .change(tx)
      .emit('wallet.credited', { userId: r.user_id, amount: principal + interest, source: 'savings', reference })
      .commit();
    return true;
  }

  const service = {
    async list(userId: string, q: { limit: number; offset: number; status?: 'active' | 'matured' | 'broken' }) {
      const list = await rows<LockRow>(
        db,
        sql`SELECT ${LOCK_COLUMNS} FROM savings_locks WHERE user_id = ${userId} ${q.status ? sql`AND status = ${q.status}` : sql``}
            ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
      );
      const totals = await one<{ s: string }>(
        db,
        sql`SELECT COALESCE(SUM(principal_kobo), 0)::text AS s FROM savings_locks WHERE user_id = ${userId} AND status = 'active'`,
      );
      return { ...page(list.map(present), q.limit, q.offset), totalLocked: toNaira(totals?.s ?? '0') };
    },

    async create(userId: string, input: { amount: number; days: number }) {
      const s = await settings.get();
      const principal = toKobo(input.amount);
      if (principal < toKobo(s.savingsMinAmount) || principal > toKobo(s.savingsMaxAmount)) {
        throw new AppError(
          'AMOUNT_OUT_OF_RANGE',
          `A savings lock holds ${formatNaira(toKobo(s.savingsMinAmount))} to ${formatNaira(toKobo(s.savingsMaxAmount))}`,
        );
      }
      const rate = bps(s.savingsAnnualRatePct);
      const feeBps = bps(s.savingsBreakFeePct);
      const interest = savingsInterest(principal, rate, input.days);
      return db.transaction(async (tx) => {
        const id = uuid();
        const now = clock.now();
        const maturesAt = new Date(now.getTime() + input.days * DAY);
        const r = await one<LockRow>(
          tx,
          sql`INSERT INTO savings_locks (id, user_id, principal_kobo, days, rate_bps, break_fee_bps, interest_kobo, status, created_at, matures_at)
              VALUES (${id}, ${userId}, ${principal}, ${input.days}, ${Number(rate)}, ${Number(feeBps)}, ${interest}, 'active', ${now}, ${maturesAt})
              RETURNING ${LOCK_COLUMNS}`,
        );
        await ledger.post(tx, {
          reference: `sav_lock_${id}`,
          type: 'savings_lock',
          description: `Savings lock for ${input.days} days`,
          entries: [
            { account: { user: userId, kind: 'wallet' }, amount: -principal },
            { account: { user: userId, kind: 'savings' }, amount: principal },
          ],
        });
        await jobs.enqueue(tx, 'savings.mature', { lockId: id }, { runAt: maturesAt, singletonKey: `savings.mature:${id}` });
        return { lock: present(r!) };
      });
    },

    /** Early break: principal back minus the fee fixed at creation, interest forfeited. Past maturity it simply matures. */
    async breakLock(userId: string, lockId: string) {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const owned = await one<{ status: string; matures_at: Date }>(
          tx,
          sql`SELECT status, matures_at FROM savings_locks WHERE id = ${lockId} AND user_id = ${userId}`,
        );
        if (!owned) throw notFound('Savings lock');
        if (owned.status === 'active' && new Date(owned.matures_at).getTime() <= now.getTime()) {
          await matureInTx(tx, lockId);
        } else {
          const r = await one<LockRow>(
            tx,
            sql`UPDATE savings_locks SET status = 'broken', closed_at = ${now},
                       fee_kobo = (principal_kobo * break_fee_bps) / 10000, payout_kobo = principal_kobo - (principal_kobo * break_fee_bps) / 10000
                WHERE id = ${lockId} AND user_id = ${userId} AND status = 'active' RETURNING ${LOCK_COLUMNS}`,
          );
          if (!r) throw new AppError('CONFLICT', `This savings lock is already ${owned.status}`);
          const principal = BigInt(r.principal_kobo);
          const fee = applyBps(principal, BigInt(r.break_fee_bps));
          await ledger.post(tx, {
            reference: `sav_break_${r.id}`,
            type: 'savings_break',
            description: 'Savings lock broken early',
            entries: [
              { account: { user: userId, kind: 'savings' }, amount: -principal },
              { account: { user: userId, kind: 'wallet' }, amount: principal - fee },
              ...(fee > 0n ? [{ account: { system: 'revenue' as const }, amount: fee }] : []),
            ],
          });
          await work
            .change(tx)
            .emit('wallet.credited', { userId, amount: principal - fee, source: 'savings', reference: `sav_break_${r.id}` })
            .commit();
        }
        const final = await one<LockRow>(tx, sql`SELECT ${LOCK_COLUMNS} FROM savings_locks WHERE id = ${lockId}`);
        return { lock: present(final!) };
      });
    },

    mature: (lockId: string) => db.transaction((tx) => matureInTx(tx, lockId)),

    /** Safety net behind the per-lock jobs (a lost or dead job): matures whatever is due. */
    async matureDue(limit = 500): Promise<number> {
      const due = await rows<{ id: string }>(
        db,
        sql`SELECT id::text AS id FROM savings_locks WHERE status = 'active' AND matures_at <= ${clock.now()} ORDER BY matures_at LIMIT ${limit}`,
      );
      let n = 0;
      for (const d of due) if (await service.mature(d.id)) n++;
      return n;
    },
  };
  return service;
}

export function registerSavingsJobs(services: { jobs: JobQueue; savings: SavingsService }) {
  services.jobs.register({
    name: 'savings.mature',
    payload: z.object({ lockId: z.string().uuid() }),
    handler: async ({ lockId }) => {
      await services.savings.mature(lockId);
    },
  });
  services.jobs.register({ name: 'savings.sweep', payload: z.object({}), handler: async () => void (await services.savings.matureDue()) });
  services.jobs.schedule({ job: 'savings.sweep', everyMs: HOUR });
}
