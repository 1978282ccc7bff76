import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import type { ProviderId } from '../../providers/vtu/types.js';
import type { VtuRow } from './repository.js';

/** An operator's record written in the settlement's transaction, with the settled row. */
export type OnSettled = (tx: Tx, done: VtuRow) => Promise<void>;

/** What the settlement's transitions (settle-success.ts, settle-failed.ts, reroute.ts, pending.ts) use. */
export interface VtuSettlementDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  work: Work;
  cfg: Config['vtu'];
  /** Wholesale at another provider for a fallback, or null when it does not sell the same product. */
  wholesaleAt: (row: VtuRow, provider: ProviderId) => Promise<bigint | null>;
}

/** The wait before a new or rerouted purchase's first requery. */
export const firstCheckDelay = (cfg: Config['vtu']) => Math.max(cfg.reconcileEveryMs, 2 * cfg.timeoutMs);

/** The wait before the next requery after `requeries` of them, doubling up to ten minutes. */
export const backoff = (cfg: Config['vtu'], requeries: number) =>
  Math.min(cfg.reconcileEveryMs * 2 ** Math.max(0, requeries - 1), 10 * MINUTE);
