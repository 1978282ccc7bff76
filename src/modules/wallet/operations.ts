import { z } from 'zod';
import { defineOperation } from '../../http/registry.js';

export const ledgerRowOutput = z.object({
  id: z.string(),
  type: z.string(),
  amount: z.number(),
  balanceAfter: z.number(),
  reference: z.string(),
  description: z.string(),
  createdAt: z.string(),
});

export const walletOperations = [
  defineOperation({
    name: 'getWalletState',
    suffix: 'BearerWallet',
    method: 'GET',
    purpose: 'balance, locked bonuses, recent ledger',
    input: z.object({}),
    output: z.object({ balance: z.number(), lockedBonus: z.number(), referralLockedBonus: z.number(), log: z.array(ledgerRowOutput) }),
    handler: async (_input, ctx) => ctx.services.wallet.state(ctx.user.id),
  }),
];
