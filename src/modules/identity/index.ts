import { defineModule } from '../../platform/module.js';
import { createTokenService, type TokenService } from './tokens.js';
import { createOtpService, type OtpService } from './otp.js';
import { createAttemptLimits } from './attempt-limits.js';
import { createDeviceService } from './devices.js';
import { createPinService, type PinService } from './pins.js';
import { createIdentityService, type IdentityService } from './service.js';
import { createSessionCache } from './session-cache.js';
import { identityOperations } from './operations.js';
import type { Subscription } from '../../db/client.js';

/** The identity module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const identityModule = defineModule({
  name: 'identity',
  needs: ['config', 'database', 'db', 'clock', 'mailer', 'outbox', 'work'],
  provides: ['tokens', 'otp', 'pins', 'identity', 'authChanges'],
  async create({ config, database, db, clock, mailer, outbox, work }) {
    const tokens = await createTokenService(config, clock);
    const otp = createOtpService({ db, clock, pepper: config.secrets.pinPepper, attempts: createAttemptLimits({ db, clock }) });
    const pins = createPinService({ db, clock, pepper: config.secrets.pinPepper, batchMax: config.requestBatchMax });
    const sessionCache = createSessionCache(clock);
    const authChanges = await database.subscribe('auth_changed', {
      message: (userId) => sessionCache.forgetUser(userId),
      reset: () => sessionCache.reset(),
    });
    sessionCache.attach(authChanges.live);
    const identity = createIdentityService({
      sessionCache,
      db,
      clock,
      config,
      tokens,
      otp,
      devices: createDeviceService({ db, clock }),
      mailer,
      outbox,
      onSignup: (tx, userId, referralCode) =>
        work
          .change(tx)
          .emit('user.created', { userId, referralCode })
          .commit()
          .then(() => undefined),
    });
    return { tokens, otp, pins, identity, authChanges };
  },
  operations: identityOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    tokens: TokenService;
    otp: OtpService;
    pins: PinService;
    identity: IdentityService;
    /** The auth_changed feed behind the session cache (closed with the app). */
    authChanges: Subscription;
  }
}
