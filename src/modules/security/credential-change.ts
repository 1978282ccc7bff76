import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { CREDENTIAL_CHANGES } from '../../kernel/notices.js';

/** A credential change the owner is told of (credential-notices.ts). */
export type CredentialChange = (typeof CREDENTIAL_CHANGES)[number];

/** What the credential notices (credential-notices.ts, not-me.ts) use. */
export interface CredentialNoticesDeps {
  db: Db;
  clock: Clock;
  work: Work;
  publicUrl: string;
  forgetUser(userId: string): void;
}

/** A time as the notices word it: Lagos time (UTC+1), to the minute. */
export const lagosTime = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().replace('T', ' ').slice(0, 16);
