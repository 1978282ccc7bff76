import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Resolver } from '../../lib/public-address.js';

/** What the notifications service's use cases (inbox.ts, broadcasts.ts, service.ts) use. */
export interface NotificationsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  resolver?: Resolver;
}
