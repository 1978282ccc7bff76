import type { Db, Executor } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { PinService } from '../identity/api.js';
import type { FirstCredential } from '../security/api.js';
import type { Notifier } from '../notifications/api.js';

/** What the settings use cases (transaction-pin.ts, update-preferences.ts, close-account.ts) use. */
export interface SettingsDeps {
  db: Db;
  clock: Clock;
  pins: PinService;
  ledger: Ledger;
  notifier: Notifier;
  work: Work;
  /** A recent proof beyond the access token: the security module's reauth gate. */
  reauth: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  /** The proof for a first PIN: a grant, or a session opened by an e-mailed code minutes ago (issue 29). */
  firstCredential: Pick<FirstCredential, 'require'>;
  notices: { notify(exec: Executor, userId: string, change: 'transaction_pin_set' | 'transaction_pin_changed'): Promise<void> };
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}
