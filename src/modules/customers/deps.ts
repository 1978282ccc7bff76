import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';

/** What the customers' use cases (service.ts, freeze.ts) use. */
export interface CustomerDeps {
  db: Db;
  clock: Clock;
  work: Work;
  forgetUser: (userId: string) => void;
}

/** What freezing and unfreezing use besides: the customer's row or NOT_FOUND (service.ts's mustExist). */
export interface FreezeDeps extends CustomerDeps {
  mustExist(userId: string): Promise<{ id: string; status: string }>;
}
