import { defineModule } from '../../http/registry.js';
import { settingsOperations } from './operations.js';

/** The settings module: what the composition root (modules/index.ts) registers for it. */
export const settingsModule = defineModule({
  name: 'settings',
  operations: settingsOperations,
});
