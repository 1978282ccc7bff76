import type { Db } from '../../db/client.js';
import type { ReadReplica } from '../../db/replica.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';

/** What the reports' use cases (transaction-reports.ts, report-resolution.ts, issues.ts) use. */
export interface ReportsDeps {
  db: Db;
  /** The lists read from the replica when there is one (src/db/replica.ts). */
  replica: ReadReplica;
  clock: Clock;
  work: Work;
  ipSalt: string;
}
