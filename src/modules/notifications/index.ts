import { defineModule } from '../../http/registry.js';
import { notificationsOperations } from './operations.js';
import { registerSmsReportRoute } from '../../http/routes/sms-reports.js';
import { registerNotificationJobs, registerNotifications } from './delivery.js';

/** The notifications module: what the composition root (modules/index.ts) registers for it. */
export const notificationsModule = defineModule({
  name: 'notifications',
  operations: notificationsOperations,
  jobs: [registerNotificationJobs],
  routes: [registerSmsReportRoute],
  subscribers: [registerNotifications],
});
