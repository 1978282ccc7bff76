import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import { prefixedId } from '../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { WalletLimit } from '../../ledger/ledger.js';
import { faultPoint } from '../../lib/faults.js';
import type { WalletMoneyDeps } from './deps.js';
import { activeUserByUsername, displayNameOf } from './recipient.js';

/** A transfer refused by the recipient's tier balance cap: the same words whatever the amount or their balance. */
export const RECIPIENT_CANNOT_RECEIVE = "The recipient's wallet cannot receive this amount (their KYC tier's balance limit)";

/**
 * transferWalletFn (spec 4.4): money from the caller's wallet to another customer's, by username. One change: the
 * posting locks both wallets (in code order) and, on the locked rows, checks the sender's daily limit and balance
 * and then the recipient's tier balance cap; both sides are notified and the credit is announced, all written only
 * if it posts.
 */
export async function transfer(
  { db, clock, work, walletLimits }: WalletMoneyDeps,
  user: AuthUser,
  input: { username: string; amount: number; note?: string },
  sender: { fullName: string | null },
) {
  const amount = toKobo(input.amount);
  const to = await activeUserByUsername(db, input.username);
  if (to.id === user.id) throw new AppError('BAD_REQUEST', 'You cannot transfer to your own wallet');
  const reference = prefixedId('trf', clock.now().getTime());
  // The recipient is told who sent it by the sender's verified name ("Ada O."), else by @username.
  const from = displayNameOf({ full_name: sender.fullName, username: user.username }) ?? 'another customer';
  // The posting locks both wallets (in code order) and, on the locked rows, checks the sender's daily limit, the
  // sender's balance and only then the recipient's tier balance cap.
  const cap = walletLimits.limitsFor(to.kyc_tier).balanceCap;
  const limits: WalletLimit[] = [walletLimits.outflowLimit(user.id, user.kycTier)];
  if (cap !== null) {
    // The recipient's balance stays private. The refusal names no amount, and comes after
    // the sender's own checks, so only a sender who has the money can meet it (and each success moves money).
    limits.push({ user: to.id, balance: { max: cap, refuse: () => new AppError('LIMIT_EXCEEDED', RECIPIENT_CANNOT_RECEIVE) } });
  }
  const change = work
    .change()
    .post({
      reference,
      type: 'transfer_out',
      description: `Transfer from ${from} to @${to.username}${input.note ? `: ${input.note}` : ''}`,
      entries: [
        { account: { user: user.id, kind: 'wallet' }, amount: -amount },
        { account: { user: to.id, kind: 'wallet' }, amount },
      ],
      metadata: { from: user.id, to: to.id, note: input.note ?? null },
      limits,
    })
    .notify(
      {
        userId: user.id,
        kind: 'transfer_sent',
        title: 'Transfer sent',
        body: `You sent ${formatNaira(amount)} to @${to.username}.`,
        data: { reference, amount: input.amount, to: to.username },
      },
      {
        userId: to.id,
        kind: 'transfer_received',
        title: 'Money received',
        body: `You received ${formatNaira(amount)} from ${from}.${input.note ? ` Note: ${input.note}` : ''}`,
        data: { reference, amount: input.amount, from, ...(input.note ? { note: input.note } : {}) },
      },
    )
    // Whoever wants to hear of the credit (a loan to auto-repay) adds its writes to the change.
    .emit('wallet.credited', { userId: to.id, amount, source: 'transfer', reference });
  // The whole transfer is ONE autocommit statement: the wallet locks (the hot rows) are held for it only.
  faultPoint('wallet.transfer.beforeCommit');
  const { posted } = await change.commit();
  const result = {
    reference,
    amount: input.amount,
    balance: toNaira(posted!.balances[`user:${user.id}:wallet`]),
    recipient: { username: to.username, fullName: to.full_name },
  };
  faultPoint('wallet.transfer.afterCommit');
  return result;
}
