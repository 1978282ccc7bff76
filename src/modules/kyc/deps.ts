import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { IdentityProvider } from '../../providers/identity.js';
import type { KycFiles } from './files.js';
import type { KycLivenessCheck } from './liveness.js';
import type { NinChecks } from './nin-checks.js';
import type { KycSubmissions } from './submissions.js';

/** What the operators' side of KYC uses. */
export interface KycReviewDeps {
  db: Db;
  clock: Clock;
  files: KycFiles;
  submissions: KycSubmissions;
  ninLinkedElsewhere: NinChecks['ninLinkedElsewhere'];
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}

/** What the applicant's side of KYC uses. */
export interface KycSubmitDeps {
  db: Db;
  identity: IdentityProvider;
  files: KycFiles;
  submissions: KycSubmissions;
  nin: NinChecks;
  checkLiveness: KycLivenessCheck;
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}
