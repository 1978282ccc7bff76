import { defineModule } from '../../platform/module.js';
import { createWalletService, type WalletService } from './service.js';
import { createWalletLimits, parseTierLimits, type WalletLimits } from './limits.js';
import { createWalletMoney, type WalletMoney } from './money.js';
import { walletOperations } from './operations.js';

/** The wallet module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const walletModule = defineModule({
  name: 'wallet',
  needs: ['config', 'db', 'replica', 'clock', 'ledger', 'work'],
  provides: ['wallet', 'walletLimits', 'walletMoney'],
  create({ config, db, replica, clock, ledger, work }) {
    const walletLimits = createWalletLimits({ clock, limits: parseTierLimits(config.tierLimitsJson) });
    return {
      wallet: createWalletService({ replica, ledger }),
      walletLimits,
      walletMoney: createWalletMoney({ db, clock, work, walletLimits }),
    };
  },
  operations: walletOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    wallet: WalletService;
    walletLimits: WalletLimits;
    /** Wallet debits and transfers. */
    walletMoney: WalletMoney;
  }
}
