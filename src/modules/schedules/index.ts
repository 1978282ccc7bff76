import { defineModule } from '../../platform/module.js';
import { createScheduleService, type ScheduleService } from './service.js';
import { scheduleOperations } from './operations.js';
import { registerScheduleJobs } from './jobs.js';

/** The schedules module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const schedulesModule = defineModule({
  name: 'schedules',
  // Scheduled runs buy through the VTU purchase path.
  needs: ['db', 'clock', 'log', 'work', 'jobs', 'vtu'],
  provides: ['schedules'],
  create: ({ vtu, ...deps }) => ({ schedules: createScheduleService({ ...deps, vtu: () => vtu }) }),
  operations: scheduleOperations,
  jobs: [registerScheduleJobs],
});

declare module '../../platform/services.js' {
  interface Services {
    schedules: ScheduleService;
  }
}
