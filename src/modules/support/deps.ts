import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';

/** What support's use cases (threads.ts, my-threads.ts, admin-threads.ts) use. */
export interface SupportDeps {
  db: Db;
  clock: Clock;
  work: Work;
}
