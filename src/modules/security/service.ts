import type { Logger } from '../../lib/logger.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Mailer, SmsSender } from '../../providers/messaging.js';
import type { IdentityService } from '../identity/api.js';
import type { OtpService } from '../identity/api.js';
import type { PinService } from '../identity/api.js';
import type { Work } from '../../platform/change.js';
import { createAttemptLimits } from '../identity/api.js';
import { createCredentialNotices } from './credential-notices.js';
import { createFirstCredentialProof } from './first-credential.js';
import { createLoginService } from './login.js';
import { createSessionClaimService } from './sessions.js';
import { createTwoFactorService } from './two-factor.js';
import { createPasskeyService } from './passkeys.js';
import { createCustomerPasskeys } from './passkey-customer.js';
import { createOperatorSessions } from './operator-sessions.js';

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
  work: Work;
  /** Links in credential-change notices. */
  publicUrl: string;
  /** Passkeys' relying party (config.webauthn). */
  webauthn: { rpId: string; rpName: string; origin: string };
  /** Operators' sessions: who counts as an operator by address, and their idle time (config). */
  adminEmails: readonly string[];
  operatorIdleMinutes: number;
}

export type SecurityService = ReturnType<typeof createSecurityService>;

/** Sign-in routes, single-device sessions, login events and two-factor step-up (spec 4.2, 4.3). */
export function createSecurityService(deps: SecurityDeps) {
  const attempts = createAttemptLimits(deps);
  const notices = createCredentialNotices({ ...deps, forgetUser: deps.identity.forgetUser });
  const passkeys = createPasskeyService({ ...deps, notices });
  const twoFactor = createTwoFactorService({
    ...deps,
    issuer: deps.totpIssuer,
    notices,
    attempts,
    devices: deps.identity.devices,
    passkeys,
  });
  const firstCredential = createFirstCredentialProof({ ...deps, grantValid: twoFactor.grantValid, isEnrolled: twoFactor.isEnrolled });
  return {
    notices,
    firstCredential,
    login: createLoginService({ ...deps, attempts, notices, reauth: twoFactor.reauth, firstCredential }),
    sessions: createSessionClaimService(deps),
    twoFactor,
    passkeys,
    /** Issue 43: a customer's passkeys, passwordless sign-in and payments confirmed with them (passkey-customer.ts). */
    customerPasskeys: createCustomerPasskeys({ ...deps, notices, firstCredential }),
    operatorSessions: createOperatorSessions({ ...deps, forgetUser: deps.identity.forgetUser }),
    /** OPERATOR_2FA (issue 30): whether an operator holds a confirmed authenticator or a passkey. */
    async hasOperatorFactor(user: AuthUser): Promise<boolean> {
      return (user.twoFactor ?? (await twoFactor.isEnrolled(user.id))) || (await passkeys.has(user.id));
    },
  };
}
