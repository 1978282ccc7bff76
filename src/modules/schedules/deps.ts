import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { Work } from '../../platform/change.js';
import type { VtuServiceApi } from '../vtu/api.js';

/** What the schedules' use cases use; `vtu`: the purchase path and the data plans, looked up when used. */
export interface ScheduleDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  work: Work;
  vtu: () => VtuServiceApi;
}

/** What a run uses: the module's dependencies and the buyer's account as a run checks it (service.ts). */
export interface RunDeps extends ScheduleDeps {
  account: (userId: string) => Promise<{ kyc_tier: number; status: string; frozen: boolean } | undefined>;
}
