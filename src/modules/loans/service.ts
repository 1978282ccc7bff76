import type { loans as loansTable } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor, type Tx } from '../../db/client.js';
import { hasOpenLoan } from './open-loan.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Ledger } from '../../ledger/ledger.js';
import { DAY, lagosDate, type Clock } from '../../kernel/clock.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import { emailsOf, profileOf } from '../identity/api.js';
import type { Notifier } from '../notifications/api.js';
import { applyBps, asTx, iso, lockedBalance } from '../growth/api.js';
import { bps, type GrowthSettings, type GrowthSettingsStore } from '../growth/api.js';
import { page } from '../../kernel/paging.js';
import type { WalletLimits } from '../wallet/api.js';

export type LoanService = ReturnType<typeof createLoanService>;

/** Purchases counted for the history part of the limit. */
export const LOAN_HISTORY_DAYS = 90;
/** A loan that went overdue blocks new loans for this long after it is repaid. */
export const LATE_REPAYMENT_COOLDOWN_DAYS = 90;
/** Overdue loans get a reminder this often until repaid. */
export const OVERDUE_REMINDER_EVERY_DAYS = 7;

export type IneligibleCode =
  'LOANS_DISABLED' | 'KYC_TIER' | 'ACCOUNT_AGE' | 'PURCHASE_HISTORY' | 'OPEN_LOAN' | 'RECENT_LATE_REPAYMENT' | 'LIMIT_TOO_LOW';

type LoanRow = Narrowed<
  Pick<
    RowOf<typeof loansTable>,
    | 'id'
    | 'user_id'
    | 'principal_kobo'
    | 'fee_kobo'
    | 'late_fee_kobo'
    | 'repaid_kobo'
    | 'status'
    | 'created_at'
    | 'due_at'
    | 'overdue_at'
    | 'repaid_at'
  >,
  { status: 'open' | 'overdue' | 'repaid' }
>;

const LOAN_COLUMNS = sql.raw(`id::text AS id, user_id::text AS user_id, principal_kobo::text AS principal_kobo, fee_kobo::text AS fee_kobo,
  late_fee_kobo::text AS late_fee_kobo, repaid_kobo::text AS repaid_kobo, status, created_at, due_at, overdue_at, repaid_at`);

const owed = (r: LoanRow) => BigInt(r.principal_kobo) + BigInt(r.fee_kobo) + BigInt(r.late_fee_kobo);
const outstandingOf = (r: LoanRow) => owed(r) - BigInt(r.repaid_kobo);

function present(r: LoanRow) {
  return {
    id: r.id,
    principal: toNaira(r.principal_kobo),
    fee: toNaira(r.fee_kobo),
    lateFee: toNaira(r.late_fee_kobo),
    repaid: toNaira(r.repaid_kobo),
    outstanding: toNaira(outstandingOf(r)),
    status: r.status,
    createdAt: iso(r.created_at)!,
    dueAt: iso(r.due_at)!,
    overdueAt: iso(r.overdue_at),
    repaidAt: iso(r.repaid_at),
  };
}

function tierCap(s: GrowthSettings, tier: number): bigint {
  if (tier >= 3) return toKobo(s.loanTier3Cap);
  if (tier === 2) return toKobo(s.loanTier2Cap);
  if (tier === 1) return toKobo(s.loanTier1Cap);
  return 0n;
}

export function createLoanService(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  notifier: Notifier;
  jobs: JobQueue;
  settings: GrowthSettingsStore;
  walletLimits: WalletLimits;
}) {
  const { db, clock, ledger, notifier, jobs, settings, walletLimits } = deps;

  const openLoan = (exec: Executor, userId: string, lock = false) =>
    one<LoanRow>(
      exec,
      sql`SELECT ${LOAN_COLUMNS} FROM loans WHERE user_id = ${userId} AND status <> 'repaid' ${lock ? sql`FOR UPDATE` : sql``}`,
    );

  /** Eligibility with every reason that applies, and the limit (tier ceiling and recent purchase history). */
  async function assess(exec: Executor, userId: string, tier: number, s: GrowthSettings) {
    const now = clock.now();
    const reasons: { code: IneligibleCode; message: string }[] = [];
    if (!s.loansEnabled) reasons.push({ code: 'LOANS_DISABLED', message: 'Loans are paused at the moment' });
    if (tier < 1) reasons.push({ code: 'KYC_TIER', message: 'Complete KYC Tier 1 to borrow' });
    const user = await profileOf(exec, userId);
    const ageDays = user ? (now.getTime() - user.createdAt.getTime()) / DAY : 0;
    if (ageDays < s.loanMinAccountAgeDays)
      reasons.push({ code: 'ACCOUNT_AGE', message: `Your account must be at least ${s.loanMinAccountAgeDays} days old` });
    const since = new Date(now.getTime() - LOAN_HISTORY_DAYS * DAY);
    const hist = await one<{ n: number; s: string }>(
      exec,
      sql`SELECT COUNT(*)::int AS n, COALESCE(SUM(amount_kobo), 0)::text AS s FROM growth_purchases WHERE user_id = ${userId} AND created_at >= ${since}`,
    );
    const purchases = hist?.n ?? 0;
    if (purchases < s.loanMinPurchases) {
      reasons.push({
        code: 'PURCHASE_HISTORY',
        message: `Make at least ${s.loanMinPurchases} purchases in ${LOAN_HISTORY_DAYS} days (you have ${purchases})`,
      });
    }
    const open = await openLoan(exec, userId);
    if (open) reasons.push({ code: 'OPEN_LOAN', message: 'Repay your current loan first' });
    const late = await one(
      exec,
      sql`SELECT 1 FROM loans WHERE user_id = ${userId} AND status = 'repaid' AND overdue_at IS NOT NULL
          AND repaid_at >= ${new Date(now.getTime() - LATE_REPAYMENT_COOLDOWN_DAYS * DAY)} LIMIT 1`,
    );
    if (late)
      reasons.push({
        code: 'RECENT_LATE_REPAYMENT',
        message: `A loan repaid late blocks new loans for ${LATE_REPAYMENT_COOLDOWN_DAYS} days`,
      });
    const fromHistory = applyBps(BigInt(hist?.s ?? '0'), bps(s.loanHistoryPct));
    let limit = tierCap(s, tier) < fromHistory ? tierCap(s, tier) : fromHistory;
    limit -= limit % 100n; // whole naira
    if (reasons.length === 0 && limit < toKobo(s.loanMinAmount)) {
      reasons.push({
        code: 'LIMIT_TOO_LOW',
        message: `Your limit is below the smallest loan (${formatNaira(toKobo(s.loanMinAmount))}); buy more to raise it`,
      });
    }
    return { eligible: reasons.length === 0, reasons, limit: reasons.length === 0 ? limit : 0n, open };
  }

  /** Moves up to `amount` from the wallet to the loan; closes the loan (and earns its fees) when fully paid. */
  async function applyRepayment(tx: Tx, loan: LoanRow, amount: bigint, how: 'manual' | 'auto' | 'due'): Promise<LoanRow> {
    const now = clock.now();
    await ledger.post(tx, {
      reference: prefixedId('lnr'),
      type: 'loan_repayment',
      description: how === 'manual' ? 'Loan repayment' : 'Loan repayment (automatic)',
      metadata: { loanId: loan.id },
      entries: [
        { account: { user: loan.user_id, kind: 'wallet' }, amount: -amount },
        { account: { user: loan.user_id, kind: 'loan' }, amount },
      ],
    });
    const closes = amount === outstandingOf(loan);
    const r = (await one<LoanRow>(
      tx,
      sql`UPDATE loans SET repaid_kobo = repaid_kobo + ${amount}, status = ${closes ? 'repaid' : loan.status}, repaid_at = ${closes ? now : null}
          WHERE id = ${loan.id} RETURNING ${LOAN_COLUMNS}`,
    ))!;
    if (closes) {
      // Fees sit in loan_book until collected, so a loan never repaid never shows as revenue.
      const fees = BigInt(r.fee_kobo) + BigInt(r.late_fee_kobo);
      if (fees > 0n) {
        await ledger.post(tx, {
          reference: `loan_fees_${r.id}`,
          type: 'loan_fee_earned',
          description: 'Loan fees earned',
          entries: [
            { account: { system: 'loan_book' }, amount: -fees },
            { account: { system: 'revenue' }, amount: fees },
          ],
        });
      }
      await notifier.emit(tx, {
        userId: r.user_id,
        kind: 'general',
        title: 'Loan repaid',
        body: 'Your loan is fully repaid. Thank you!',
        data: { loanId: r.id, event: 'loan_repaid' },
      });
    }
    return r;
  }

  const service = {
    async overview(user: { id: string; kycTier: number }) {
      const s = await settings.get();
      const a = await assess(db, user.id, user.kycTier, s);
      return {
        eligible: a.eligible,
        reasons: a.reasons,
        limit: toNaira(a.limit),
        minAmount: s.loanMinAmount,
        feePct: s.loanFeePct,
        lateFeePct: s.loanLateFeePct,
        termDays: s.loanTermDays,
        outstanding: a.open ? toNaira(outstandingOf(a.open)) : 0,
        dueAt: a.open ? iso(a.open.due_at) : null,
        loan: a.open ? present(a.open) : null,
      };
    },

    async take(user: { id: string; kycTier: number }, amountNaira: number) {
      const principal = toKobo(amountNaira);
      return db.transaction(async (tx) => {
        const s = await settings.get(tx);
        const a = await assess(tx, user.id, user.kycTier, s);
        if (a.open) throw new AppError('CONFLICT', 'You already have an open loan; repay it first');
        if (!a.eligible) throw new AppError('NOT_ELIGIBLE', `Not eligible for a loan: ${a.reasons.map((r) => r.message).join('; ')}`);
        if (principal < toKobo(s.loanMinAmount) || principal > a.limit) {
          throw new AppError('AMOUNT_OUT_OF_RANGE', `You can borrow ${formatNaira(toKobo(s.loanMinAmount))} to ${formatNaira(a.limit)}`);
        }
        // A loan is optional money: it may not push the wallet past the tier's balance cap (docs/design.md §6).
        const headroom = await walletLimits.balanceHeadroom(tx, user.id, user.kycTier);
        if (headroom !== null && principal > headroom) {
          throw new AppError(
            'AMOUNT_OUT_OF_RANGE',
            `That loan would take your wallet past your KYC tier's balance cap; you can borrow at most ${formatNaira(headroom)} now`,
          );
        }
        const fee = applyBps(principal, bps(s.loanFeePct));
        const now = clock.now();
        const dueAt = new Date(now.getTime() + s.loanTermDays * DAY);
        const id = uuid();
        // The partial unique index decides between parallel requests: the loser inserts nothing.
        const r = await one<LoanRow>(
          tx,
          sql`INSERT INTO loans (id, user_id, principal_kobo, fee_kobo, status, created_at, due_at)
              VALUES (${id}, ${user.id}, ${principal}, ${fee}, 'open', ${now}, ${dueAt})
              ON CONFLICT (user_id) WHERE status <> 'repaid' DO NOTHING RETURNING ${LOAN_COLUMNS}`,
        );
        if (!r) throw new AppError('CONFLICT', 'You already have an open loan; repay it first');
        await ledger.post(tx, {
          reference: `loan_${id}`,
          type: 'loan_disbursement',
          description: `Loan of ${formatNaira(principal)} due ${lagosDate(dueAt)}`,
          metadata: { loanId: id },
          entries: [
            { account: { user: user.id, kind: 'loan' }, amount: -(principal + fee) },
            { account: { user: user.id, kind: 'wallet' }, amount: principal },
            ...(fee > 0n ? [{ account: { system: 'loan_book' as const }, amount: fee }] : []),
          ],
        });
        await jobs.enqueue(tx, 'loans.due', { loanId: id }, { runAt: dueAt, singletonKey: `loans.due:${id}` });
        const remindAt = dueAt.getTime() - s.loanReminderDays * DAY;
        if (s.loanReminderDays > 0 && remindAt > now.getTime()) {
          await jobs.enqueue(tx, 'loans.remind', { loanId: id }, { runAt: new Date(remindAt), singletonKey: `loans.remind:${id}` });
        }
        return { loan: present(r) };
      });
    },

    /** repayLoan: the whole outstanding by default; a part payment when `amount` is given. */
    async repay(userId: string, amountNaira: number | undefined) {
      return db.transaction(async (tx) => {
        const wallet = await lockedBalance(tx, userId, 'wallet'); // wallet before loan: the order every path takes
        const loan = await openLoan(tx, userId, true);
        if (!loan) throw notFound('Open loan');
        const outstanding = outstandingOf(loan);
        const amount = amountNaira === undefined ? outstanding : toKobo(amountNaira);
        if (amount > outstanding) throw new AppError('AMOUNT_OUT_OF_RANGE', `You owe ${formatNaira(outstanding)}; pay at most that`);
        if (amount > wallet)
          throw new AppError('INSUFFICIENT_FUNDS', `Wallet balance ${formatNaira(wallet)} is below ${formatNaira(amount)}`);
        const r = await applyRepayment(tx, loan, amount, 'manual');
        return { loan: present(r), paid: toNaira(amount) };
      });
    },

    hasOpenLoan,

    /** 'wallet.credited': money arriving while a loan is open repays it, as far as the wallet allows. */
    async onWalletCredited(exec: Executor, e: { userId: string }) {
      const tx = asTx(exec);
      if (!(await openLoan(tx, e.userId))) return;
      const wallet = await lockedBalance(tx, e.userId, 'wallet');
      const loan = await openLoan(tx, e.userId, true);
      if (!loan || wallet <= 0n) return;
      const outstanding = outstandingOf(loan);
      await applyRepayment(tx, loan, wallet < outstanding ? wallet : outstanding, 'auto');
    },

    /** Due date: collect what the wallet holds; what is left becomes overdue with the late fee. */
    async processDue(loanId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const peek = await one<{ user_id: string }>(tx, sql`SELECT user_id::text AS user_id FROM loans WHERE id = ${loanId}`);
        if (!peek) return;
        const wallet = await lockedBalance(tx, peek.user_id, 'wallet');
        let loan = await one<LoanRow>(tx, sql`SELECT ${LOAN_COLUMNS} FROM loans WHERE id = ${loanId} FOR UPDATE`);
        const now = clock.now();
        if (!loan || loan.status !== 'open' || new Date(loan.due_at).getTime() > now.getTime()) return;
        const outstanding = outstandingOf(loan);
        const take = wallet < outstanding ? wallet : outstanding;
        if (take > 0n) loan = await applyRepayment(tx, loan, take, 'due');
        if (loan.status === 'repaid') return;
        const s = await settings.get(tx);
        const lateFee = applyBps(BigInt(loan.principal_kobo), bps(s.loanLateFeePct));
        if (lateFee > 0n) {
          await ledger.post(tx, {
            reference: `loan_late_${loan.id}`,
            type: 'loan_late_fee',
            description: 'Late fee on overdue loan',
            metadata: { loanId: loan.id },
            entries: [
              { account: { user: loan.user_id, kind: 'loan' }, amount: -lateFee },
              { account: { system: 'loan_book' }, amount: lateFee },
            ],
          });
        }
        const r = (await one<LoanRow>(
          tx,
          sql`UPDATE loans SET status = 'overdue', overdue_at = ${now}, last_reminded_at = ${now}, late_fee_kobo = ${lateFee} WHERE id = ${loan.id} RETURNING ${LOAN_COLUMNS}`,
        ))!;
        await notifier.emit(tx, {
          userId: r.user_id,
          kind: 'loan_due',
          title: 'Loan overdue',
          body: `Your loan is overdue: ${formatNaira(outstandingOf(r))} is outstanding${lateFee > 0n ? `, including a ${formatNaira(lateFee)} late fee` : ''}. Money added to your wallet repays it automatically.`,
          data: { loanId: r.id, stage: 'overdue', outstanding: toNaira(outstandingOf(r)), lateFee: toNaira(lateFee) },
        });
      });
    },

    /** Operators' collection view: loans by status, newest first, with the borrower's e-mail. */
    async adminList(q: { status?: 'open' | 'overdue' | 'repaid'; limit: number; offset: number }) {
      const list = await rows<LoanRow>(
        db,
        sql`SELECT ${LOAN_COLUMNS} FROM loans
            ${q.status ? sql`WHERE status = ${q.status}` : sql``} ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${q.offset}`,
      );
      const emails = await emailsOf(
        db,
        list.map((r) => r.user_id),
      );
      return page(
        list.map((r) => ({ ...present(r), userId: r.user_id, email: emails.get(r.user_id)! })),
        q.limit,
        q.offset,
      );
    },

    async remind(loanId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const loan = await one<LoanRow>(tx, sql`SELECT ${LOAN_COLUMNS} FROM loans WHERE id = ${loanId}`);
        if (!loan || loan.status !== 'open') return;
        await notifier.emit(tx, {
          userId: loan.user_id,
          kind: 'loan_due',
          title: 'Loan due soon',
          body: `${formatNaira(outstandingOf(loan))} is due on ${lagosDate(new Date(loan.due_at))}. We collect it from your wallet on the due date.`,
          data: {
            loanId: loan.id,
            dueAt: iso(loan.due_at),
            stage: 'soon',
            outstanding: toNaira(outstandingOf(loan)),
            dueDate: lagosDate(new Date(loan.due_at)),
          },
        });
      });
    },

    /** Hourly: due loans the per-loan job missed, and the weekly reminder of overdue ones. */
    async processAllDue(limit = 500): Promise<void> {
      const now = clock.now();
      const due = await rows<{ id: string }>(
        db,
        sql`SELECT id::text AS id FROM loans WHERE status = 'open' AND due_at <= ${now} ORDER BY due_at LIMIT ${limit}`,
      );
      for (const d of due) await service.processDue(d.id);
      const before = new Date(now.getTime() - OVERDUE_REMINDER_EVERY_DAYS * DAY);
      // The UPDATE claims each reminder, so parallel sweeps never send it twice; notices commit with the claim.
      await db.transaction(async (tx) => {
        const stale = await rows<LoanRow>(
          tx,
          sql`UPDATE loans SET last_reminded_at = ${now} WHERE id IN (
                SELECT id FROM loans WHERE status = 'overdue' AND last_reminded_at <= ${before} ORDER BY last_reminded_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
              RETURNING ${LOAN_COLUMNS}`,
        );
        for (const r of stale) {
          await notifier.emit(tx, {
            userId: r.user_id,
            kind: 'loan_due',
            title: 'Loan still overdue',
            body: `${formatNaira(outstandingOf(r))} is still outstanding. Money added to your wallet repays it automatically, or repay it now.`,
            data: { loanId: r.id, stage: 'still_overdue', outstanding: toNaira(outstandingOf(r)) },
          });
        }
      });
    },
  };
  return service;
}
