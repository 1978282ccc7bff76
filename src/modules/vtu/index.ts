import { defineModule } from '../../http/registry.js';
import { vtuOperations } from './operations.js';
import { registerVtuJobs } from './jobs.js';

/** The vtu module: what the composition root (modules/index.ts) registers for it. */
export const vtuModule = defineModule({
  name: 'vtu',
  operations: vtuOperations,
  jobs: [registerVtuJobs],
});
