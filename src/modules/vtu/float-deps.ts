import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import type { ProviderId, VtuProvider } from '../../providers/vtu/types.js';

/** What the provider floats' use cases (float-funding.ts, float-admin.ts) use, with the process's float state. */
export interface FloatDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  work: Work;
  cfg: Config['vtu'];
  /** Every service's providers its routing names, read when called (the floats' service lists only, no money decision). */
  routing: () => Promise<Record<string, ProviderId[]>>;
  providers: Record<ProviderId, VtuProvider>;
  /** The per-process estimate of each provider's balance. */
  floatEstimate: Map<ProviderId, bigint>;
  /** The balance check (and top-up) under way for a provider, shared by every purchase waiting on it. */
  refilling: Map<ProviderId, Promise<void>>;
}
