import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY, lagosDate, type Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import { formatNaira, toKobo } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { applyBps, bps, type GrowthSettingsStore } from '../growth/api.js';
import type { WalletLimits } from '../wallet/api.js';
import { LOAN_COLUMNS, present, type LoanRow } from './loan-row.js';
import { assess } from './overview.js';

export interface TakeLoanDeps {
  db: Db;
  clock: Clock;
  work: Work;
  settings: GrowthSettingsStore;
  walletLimits: WalletLimits;
}

/** takeLoan: the principal into the wallet, the fee into loan_book, the due date's and the reminder's jobs. */
export async function takeLoan(deps: TakeLoanDeps, user: { id: string; kycTier: number }, amountNaira: number) {
  const { db, clock, work, settings, walletLimits } = deps;
  const principal = toKobo(amountNaira);
  return db.transaction(async (tx) => {
    const s = await settings.get(tx);
    const a = await assess(clock, tx, user.id, user.kycTier, s);
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
    const change = work.change(tx).post({
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
    change.enqueue('loans.due', { loanId: id }, { runAt: dueAt, singletonKey: `loans.due:${id}` });
    const remindAt = dueAt.getTime() - s.loanReminderDays * DAY;
    if (s.loanReminderDays > 0 && remindAt > now.getTime()) {
      change.enqueue('loans.remind', { loanId: id }, { runAt: new Date(remindAt), singletonKey: `loans.remind:${id}` });
    }
    await change.commit();
    return { loan: present(r) };
  });
}
