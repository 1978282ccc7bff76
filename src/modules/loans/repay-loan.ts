import type { Db, Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { asTx, lockedBalance } from '../growth/api.js';
import { openLoan, outstandingOf, present } from './loan-row.js';
import { applyRepayment } from './repayment.js';

export interface RepayDeps {
  db: Db;
  clock: Clock;
  work: Work;
}

/** repayLoan: the whole outstanding by default; a part payment when `amount` is given. */
export async function repayLoan(deps: RepayDeps, userId: string, amountNaira: number | undefined) {
  return deps.db.transaction(async (tx) => {
    const wallet = await lockedBalance(tx, userId, 'wallet'); // wallet before loan: the order every path takes
    const loan = await openLoan(tx, userId, true);
    if (!loan) throw notFound('Open loan');
    const outstanding = outstandingOf(loan);
    const amount = amountNaira === undefined ? outstanding : toKobo(amountNaira);
    if (amount > outstanding) throw new AppError('AMOUNT_OUT_OF_RANGE', `You owe ${formatNaira(outstanding)}; pay at most that`);
    if (amount > wallet) throw new AppError('INSUFFICIENT_FUNDS', `Wallet balance ${formatNaira(wallet)} is below ${formatNaira(amount)}`);
    const r = await applyRepayment(deps, tx, loan, amount, 'manual');
    return { loan: present(r), paid: toNaira(amount) };
  });
}

/** 'wallet.credited': money arriving while a loan is open repays it, as far as the wallet allows. */
export async function repayOnCredit(deps: RepayDeps, exec: Executor, e: { userId: string }) {
  const tx = asTx(exec);
  if (!(await openLoan(tx, e.userId))) return;
  const wallet = await lockedBalance(tx, e.userId, 'wallet');
  const loan = await openLoan(tx, e.userId, true);
  if (!loan || wallet <= 0n) return;
  const outstanding = outstandingOf(loan);
  await applyRepayment(deps, tx, loan, wallet < outstanding ? wallet : outstanding, 'auto');
}
