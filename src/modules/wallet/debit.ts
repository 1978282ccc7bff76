import type { AuthUser } from '../../kernel/actor.js';
import { prefixedId } from '../../kernel/ids.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { WalletMoneyDeps } from './deps.js';

/** debitWalletFn's counter-account: the platform received the money for the purpose in the note. */
export const WALLET_DEBIT_ACCOUNT = 'revenue:wallet_debits' as const;

/** debitWalletFn (spec 4.4): money out of the caller's wallet for the purpose in the note, within the daily limit. */
export async function debit({ clock, work, walletLimits }: WalletMoneyDeps, user: AuthUser, input: { amount: number; note: string }) {
  const amount = toKobo(input.amount);
  const reference = prefixedId('wdb', clock.now().getTime());
  // One autocommit statement: it locks the wallet, checks the daily limit and the balance on the locked row,
  // and moves the money.
  const { posted } = await work
    .change()
    .post({
      reference,
      type: 'wallet_debit',
      description: input.note,
      entries: [
        { account: { user: user.id, kind: 'wallet' }, amount: -amount },
        { account: { system: WALLET_DEBIT_ACCOUNT }, amount },
      ],
      limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
    })
    .commit();
  return { reference, amount: input.amount, note: input.note, balance: toNaira(posted!.balances[`user:${user.id}:wallet`]) };
}
