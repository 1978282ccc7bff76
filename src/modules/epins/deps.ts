import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { EpinProvider } from '../../providers/epins.js';
import type { VtuServiceApi } from '../vtu/api.js';
import type { WalletLimits } from '../wallet/api.js';

/** What the recharge cards' use cases use (issue 45). */
export interface EpinsDeps {
  db: Db;
  clock: Clock;
  work: Work;
  walletLimits: WalletLimits;
  /** The price levels (vtu's): the buyer's level names the e-PIN price. */
  levels: VtuServiceApi['levels'];
  /** The seller; null when none is configured (e-PINs are not on sale). */
  provider: EpinProvider | null;
  /** DATA_ENCRYPTION_KEY: the PINs are kept encrypted with it. */
  secretKey: string;
}
