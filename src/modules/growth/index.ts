import { defineModule } from '../../platform/module.js';
import { createGrowthArea, subscribeGrowth, type GrowthArea } from './register.js';
import { GROWTH_SETTINGS_CHANNEL } from './settings.js';
import { growthOperations } from './operations.js';
import { registerGrowthJobs } from './jobs.js';
import type { Subscription } from '../../db/client.js';

/** The growth module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const growthModule = defineModule({
  name: 'growth',
  // Savings locks and loans share growth's operator settings: the growth area builds all four.
  needs: ['database', 'db', 'clock', 'ledger', 'events', 'jobs', 'work', 'log', 'walletLimits'],
  provides: ['growthSettings', 'growth', 'savings', 'loans', 'growthSettingsChanges'],
  async create({ database, ...deps }) {
    const area = createGrowthArea(deps);
    const growthSettingsChanges = await database.subscribe(GROWTH_SETTINGS_CHANNEL, {
      message: () => area.growthSettings.forget(),
      reset: () => area.growthSettings.forget(),
    });
    area.growthSettings.attach(growthSettingsChanges.live);
    return { ...area, growthSettingsChanges };
  },
  operations: growthOperations,
  jobs: [registerGrowthJobs],
  subscribers: [subscribeGrowth],
});

declare module '../../platform/services.js' {
  interface Services {
    /** Referrals, check-ins, savings locks, loans and their operator settings. */
    growthSettings: GrowthArea['growthSettings'];
    growth: GrowthArea['growth'];
    savings: GrowthArea['savings'];
    loans: GrowthArea['loans'];
    /** Drops the in-memory growth settings when any instance changes them (migration 0602). */
    growthSettingsChanges: Subscription;
  }
}
