import type { totpFactors } from './schema.js';
import type { RowOf } from '../../db/rows.js';
import type { Db } from '../../db/client.js';
import { MINUTE, type Clock } from '../../kernel/clock.js';
import type { Mailer } from '../../providers/messaging.js';
import type { AttemptLimits, OtpService } from '../identity/api.js';
import type { CodeSource } from './code-tries.js';
import type { CredentialNotices } from './credential-notices.js';
import type { Work } from '../../platform/change.js';
import type { PasskeyService } from './passkeys.js';

/** docs/design.md §5: grants live 10 minutes, bound to user and session; wrong codes are limited like PINs. */
export const GRANT_TTL_MS = 10 * MINUTE;

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  otp: OtpService;
  mailer: Mailer;
  encryptionKey: string;
  issuer: string;
  identity: { forgetUser(userId: string): void };
  notices: CredentialNotices;
  work: Work;
  attempts: AttemptLimits;
  /**
   * Known devices of an account (identity's devices): each has its own budget of code tries; a device becomes known
   * when a sign-in's second step passes (issue 43).
   */
  devices: {
    recognise(userId: string, from: CodeSource): Promise<string | null>;
    remember(userId: string, from: CodeSource): Promise<string[]>;
  };
  /** Keys the recovery codes' hashes (PIN_PEPPER). */
  pepper: string;
  /** Operators' passkeys (passkeys.ts): a second factor like the authenticator. */
  passkeys: PasskeyService;
}

/** Wrong codes are budgeted in attempt_limits (code-tries.ts); the table's old lock columns are not read. */
export type FactorRow = Pick<RowOf<typeof totpFactors>, 'secret_enc' | 'confirmed_at' | 'last_step'>;
