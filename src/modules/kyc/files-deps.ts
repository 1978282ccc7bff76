import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { FileStorage } from '../../providers/storage.js';

/** What the KYC files use. */
export interface KycFilesDeps {
  db: Db;
  clock: Clock;
  config: Config;
  storage: FileStorage;
}
