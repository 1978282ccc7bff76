import { defineModule } from '../../platform/module.js';
import { createWalletService, type WalletService } from './service.js';
import { createWalletLimits, parseTierLimits, type WalletLimits } from './limits.js';
import { createWalletMoney, type WalletMoney } from './money.js';
import { walletOperations } from './operations.js';
import { createWalletStatements, type WalletStatements } from './statement.js';

/** The wallet module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const walletModule = defineModule({
  name: 'wallet',
  needs: ['config', 'db', 'replica', 'clock', 'ledger', 'work', 'serviceNames'],
  provides: ['wallet', 'walletLimits', 'walletMoney', 'walletStatements'],
  create({ config, db, replica, clock, ledger, work, serviceNames }) {
    const walletLimits = createWalletLimits({ clock, limits: parseTierLimits(config.tierLimitsJson) });
    const wallet = createWalletService({ replica, ledger, clock });
    return {
      wallet,
      /** getStatement (issue 43): the wallet's statement for a period as CSV or PDF. */
      walletStatements: createWalletStatements({ wallet, replica, clock, serviceNames }),
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
    /** The wallet's statements (issue 43). */
    walletStatements: WalletStatements;
  }
}
