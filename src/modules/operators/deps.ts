import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Outbox } from '../notifications/api.js';

/**
 * Operators and their roles (issue 30, docs/security.md "Operator roles"): rows of operator_roles (migration
 * 1000), plus admin for the ADMIN_EMAILS accounts, who are admins by configuration and cannot be revoked here.
 * A grant or revocation is announced on auth_changed (the row's trigger), so every instance's session cache
 * drops the account and its next request carries the new roles.
 */
export interface OperatorsDeps {
  db: Db;
  clock: Clock;
  /** ADMIN_EMAILS, lower-case. */
  adminEmails: readonly string[];
  outbox: Outbox;
  /** Where an invited operator signs in (PUBLIC_URL's /console). */
  consoleUrl: string;
}

/** What the operators' use cases use: the dependencies, ADMIN_EMAILS lower-cased and as a JSON list for statements. */
export interface OperatorsUseCaseDeps extends OperatorsDeps {
  emailList: string;
}
