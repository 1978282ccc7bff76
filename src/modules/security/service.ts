import type { Logger } from '../../lib/logger.js';
import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../kernel/clock.js';
import type { Mailer, SmsSender } from '../../providers/messaging.js';
import type { IdentityService } from '../identity/api.js';
import type { OtpService } from '../identity/api.js';
import type { PinService } from '../identity/api.js';
import type { Notifier } from '../notifications/api.js';
import { createAttemptLimits } from '../identity/api.js';
import { createCredentialNotices } from './credential-notices.js';
import { createFirstCredentialProof } from './first-credential.js';
import { createLoginService } from './login.js';
import { createSessionClaimService } from './sessions.js';
import { createTwoFactorService } from './two-factor.js';

export interface SecurityDeps {
  db: Db;
  clock: Clock;
  pepper: string;
  encryptionKey: string;
  totpIssuer: string;
  otp: OtpService;
  pins: PinService;
  identity: IdentityService;
  mailer: Mailer;
  sms: SmsSender;
  log?: Logger;
  notifier: Notifier;
  /** Links in credential-change notices. */
  publicUrl: string;
  jobs: JobQueue;
}

export type SecurityService = ReturnType<typeof createSecurityService>;

/** Sign-in routes, single-device sessions, login events and two-factor step-up (spec 4.2, 4.3). */
export function createSecurityService(deps: SecurityDeps) {
  const attempts = createAttemptLimits(deps);
  const notices = createCredentialNotices({ ...deps, forgetUser: deps.identity.forgetUser });
  const twoFactor = createTwoFactorService({ ...deps, issuer: deps.totpIssuer, notices, attempts, devices: deps.identity.devices });
  const firstCredential = createFirstCredentialProof({ ...deps, grantValid: twoFactor.grantValid, isEnrolled: twoFactor.isEnrolled });
  return {
    notices,
    firstCredential,
    login: createLoginService({ ...deps, attempts, notices, reauth: twoFactor.reauth, firstCredential }),
    sessions: createSessionClaimService(deps),
    twoFactor,
  };
}
