import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { EpinPriceApprovals } from '../epins/api.js';
import type { PaymentsService } from '../payments/api.js';
import type { VtuServiceApi } from '../vtu/api.js';
import type { OperatorsService } from '../operators/api.js';

/** What four-eyes' use cases (submit.ts, decide.ts, read-requests.ts, settings.ts, actions.ts) use. */
export interface ApprovalDeps {
  db: Db;
  clock: Clock;
  payments: PaymentsService;
  vtu: VtuServiceApi;
  /** Issue 45: a level's e-PIN price is the epins module's to check and write. */
  epins: EpinPriceApprovals;
  operators: OperatorsService;
}
