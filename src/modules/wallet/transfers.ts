import type { RowOf } from '../../db/rows.js';
import type { users } from '../identity/api.js';
import { sql } from 'drizzle-orm';
import { answerOf, readOf, type Read } from '../../platform/reads.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { WalletLimit } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import { prefixedId } from '../../kernel/ids.js';
import { faultPoint } from '../../lib/faults.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { WalletLimits } from './limits.js';

/**
 * Money leaving a wallet on the user's instruction: debitWalletFn and transferWalletFn (spec 4.4).
 * The posting locks the wallet rows (FOR UPDATE, in code order) and checks the daily outflow and the balance on
 * the locked rows in the same statement, so the limit check and the debit are one decision per wallet: a hundred
 * concurrent debits can neither overdraw nor slip past the tier limit.
 */
export { DEBIT_MIN_NAIRA, MONEY_MAX_NAIRA, TRANSFER_MIN_NAIRA } from './inputs.js';
/** A transfer refused by the recipient's tier balance cap: the same words whatever the amount or their balance. */
export const RECIPIENT_CANNOT_RECEIVE = "The recipient's wallet cannot receive this amount (their KYC tier's balance limit)";
/** The tier that unlocks transfers (spec 5.8), and with it the recipient's full name in lookupProfileByUsername. */
export const TRANSFER_TIER = 2;

/** "Ada Grace Obi" -> "A*** G*** O***": enough to notice a wrong person, too little to learn a name. */
export const maskName = (name: string) =>
  name
    .trim()
    .split(/\s+/)
    .map((w) => `${[...w][0]}***`)
    .join(' ');

/** debitWalletFn's counter-account: the platform received the money for the purpose in the note. */
export const WALLET_DEBIT_ACCOUNT = 'revenue:wallet_debits' as const;

export type WalletMoney = ReturnType<typeof createWalletMoney>;

/** A transfer's recipient as looked up by username. */
export type RecipientRow = Pick<RowOf<typeof users>, 'id' | 'full_name' | 'kyc_tier'> & {
  username: string;
};

export function createWalletMoney({ db, clock, work, walletLimits }: { db: Db; clock: Clock; work: Work; walletLimits: WalletLimits }) {
  /** The recipient look-up of transfer(), as a read: an operation's read-ahead reads it in the claim's round trip. */
  const recipientRead = (username: string): Read<RecipientRow> =>
    readOf(
      `wallet.recipient:${username.toLowerCase()}`,
      sql`SELECT json_build_object('id', id, 'username', username, 'full_name', full_name, 'kyc_tier', kyc_tier)
            FROM users WHERE username = ${username.toLowerCase()} AND status = 'active'`,
    );

  /** recipientRead's answer: the request's read-ahead's when it read it, else read now. */
  async function activeUserByUsername(username: string) {
    const u = await answerOf(db, recipientRead(username));
    if (!u) throw new AppError('NOT_FOUND', `No active account has the username @${username.toLowerCase()}`);
    return u;
  }

  return {
    recipientRead,

    /**
     * lookupProfileByUsername: the minimal profile a sender needs to confirm the recipient. The full name only to a
     * caller of the tier that may transfer (Tier 2, a verified identity); anyone else, a brand-new account included,
     * gets it masked (docs/decisions.md), so free accounts cannot harvest names from usernames.
     */
    async lookupProfile(caller: AuthUser, username: string) {
      const u = await activeUserByUsername(username);
      const mayTransfer = caller.kycTier >= TRANSFER_TIER;
      return { username: u.username, fullName: mayTransfer || !u.full_name ? u.full_name : maskName(u.full_name) };
    },

    async debit(user: AuthUser, input: { amount: number; note: string }) {
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
    },

    async transfer(user: AuthUser, input: { username: string; amount: number; note?: string }) {
      const amount = toKobo(input.amount);
      const to = await activeUserByUsername(input.username);
      if (to.id === user.id) throw new AppError('BAD_REQUEST', 'You cannot transfer to your own wallet');
      const reference = prefixedId('trf', clock.now().getTime());
      const from = user.username ? `@${user.username}` : 'a user';
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
            data: { reference, amount: input.amount, from: user.username, ...(input.note ? { note: input.note } : {}) },
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
    },
  };
}
