import { defineModule } from '../../http/registry.js';
import { scheduleOperations } from './operations.js';
import { registerScheduleJobs } from './jobs.js';

/** The schedules module: what the composition root (modules/index.ts) registers for it. */
export const schedulesModule = defineModule({
  name: 'schedules',
  operations: scheduleOperations,
  jobs: [registerScheduleJobs],
});
