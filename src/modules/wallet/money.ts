import type { AuthUser } from '../../kernel/actor.js';
import { debit } from './debit.js';
import type { WalletMoneyDeps } from './deps.js';
import { limitsToday } from './limits-today.js';
import { lookupProfile, recipientRead } from './recipient.js';
import { transfer } from './transfer.js';

/**
 * Money leaving a wallet on the user's instruction: debitWalletFn and transferWalletFn (spec 4.4), one file each
 * (debit.ts, transfer.ts). The posting locks the wallet rows (FOR UPDATE, in code order) and checks the daily outflow
 * and the balance on the locked rows in the same statement, so the limit check and the debit are one decision per
 * wallet: a hundred concurrent debits can neither overdraw nor slip past the tier limit.
 */
export { DEBIT_MIN_NAIRA, MONEY_MAX_NAIRA, TRANSFER_MIN_NAIRA } from './inputs.js';
export { WALLET_DEBIT_ACCOUNT } from './debit.js';
export { maskName, TRANSFER_TIER, type RecipientRow } from './recipient.js';
export { RECIPIENT_CANNOT_RECEIVE } from './transfer.js';
export type { WalletMoneyDeps } from './deps.js';

export type WalletMoney = ReturnType<typeof createWalletMoney>;

/** The wallet's money use cases, bound to what they use. */
export function createWalletMoney(deps: WalletMoneyDeps) {
  return {
    recipientRead,
    lookupProfile: (caller: AuthUser, username: string) => lookupProfile(deps.db, caller, username),
    debit: (user: AuthUser, input: { amount: number; note: string }) => debit(deps, user, input),
    transfer: (user: AuthUser, input: { username: string; amount: number; note?: string }, sender: { fullName: string | null }) =>
      transfer(deps, user, input, sender),
    /** The caller's tier limits and what is left of today's (limits-today.ts). */
    limitsToday: (user: AuthUser) => limitsToday(deps, user),
  };
}
