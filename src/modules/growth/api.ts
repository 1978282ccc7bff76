/**
 * What other modules may use of the growth module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { applyBps, asTx, iso, lockedBalance } from './accounts.js';
export { bps } from './settings.js';
export type { GrowthSettings, GrowthSettingsStore } from './settings.js';
