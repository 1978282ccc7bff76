import { defineModule } from '../../http/registry.js';
import { growthOperations } from './operations.js';
import { registerGrowthJobs } from './jobs.js';

/** The growth module: what the composition root (modules/index.ts) registers for it. */
export const growthModule = defineModule({
  name: 'growth',
  operations: growthOperations,
  jobs: [registerGrowthJobs],
});
