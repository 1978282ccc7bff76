import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { WalletLimits } from './limits.js';

/** What the wallet's money use cases (debit.ts, transfer.ts) use. */
export interface WalletMoneyDeps {
  db: Db;
  clock: Clock;
  work: Work;
  walletLimits: WalletLimits;
}
