import { defineModule } from '../../platform/module.js';
import { createSecurityService, type SecurityService } from './service.js';
import { securityOperations } from './operations.js';
import { operatorAuthOperations } from './operator-operations.js';
import { signInSecondFactorOperations } from './sign-in-operations.js';
import { customerPasskeyOperations } from './customer-passkey-operations.js';
import { registerSecurityJobs } from './jobs.js';
import { registerKnownDevicesEnd } from '../identity/api.js';
import type { AuthUser } from '../../kernel/actor.js';

/** The security module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const securityModule = defineModule({
  name: 'security',
  needs: ['config', 'db', 'clock', 'log', 'jobs', 'otp', 'pins', 'identity', 'mailer', 'sms', 'work', 'events'],
  provides: ['security', 'stepUp'],
  create({ config, db, clock, log, otp, pins, identity, mailer, sms, work }) {
    const security = createSecurityService({
      db,
      clock,
      pepper: config.secrets.pinPepper,
      encryptionKey: config.secrets.dataEncryptionKey,
      totpIssuer: config.totpIssuer,
      otp,
      pins,
      identity,
      mailer,
      sms,
      log,
      work,
      publicUrl: config.publicUrl,
      webauthn: config.webauthn,
      adminEmails: config.adminEmails,
      operatorIdleMinutes: config.operators.idleMinutes,
    });
    return { security, stepUp: security.twoFactor.stepUp };
  },
  operations: [...securityOperations, ...signInSecondFactorOperations, ...operatorAuthOperations, ...customerPasskeyOperations],
  jobs: [registerSecurityJobs],
  // Known devices end with the account (identity's table; its module's entry file is registered here with the other
  // reactions that end sign-in state).
  subscribers: [registerKnownDevicesEnd],
});

declare module '../../platform/services.js' {
  interface Services {
    security: SecurityService;
    /** Step-up gate (docs/design.md §5), provided by the two-factor module. */
    stepUp?: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  }
}
