import { defineModule } from '../../platform/module.js';
import { createSettingsService, type SettingsService } from './service.js';
import { settingsOperations } from './operations.js';

/** The settings module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const settingsModule = defineModule({
  name: 'settings',
  needs: ['db', 'clock', 'pins', 'ledger', 'notifier', 'work', 'security', 'identity'],
  provides: ['settings'],
  create: ({ db, clock, pins, ledger, notifier, work, security, identity }) => ({
    settings: createSettingsService({
      db,
      clock,
      pins,
      ledger,
      notifier,
      work,
      reauth: security.twoFactor.reauth,
      firstCredential: security.firstCredential,
      notices: security.notices,
      forgetUser: identity.forgetUser,
    }),
  }),
  operations: settingsOperations,
});

declare module '../../platform/services.js' {
  interface Services {
    settings: SettingsService;
  }
}
