import { defineModule } from '../../platform/module.js';
import { createNotifier, type Notifier } from './notifier.js';
import { createOutbox, type Outbox } from './outbox.js';
import { createNotificationsService, type NotificationsService } from './service.js';
import { notificationsOperations } from './operations.js';
import { templateOperations } from './template-operations.js';
import { registerNotificationJobs, registerNotifications } from './delivery.js';

/** The notifications module: what it needs, what it provides and what the composition root (services.ts) registers for it. */
export const notificationsModule = defineModule({
  name: 'notifications',
  needs: ['config', 'db', 'clock', 'jobs', 'work', 'resolver', 'events', 'log', 'push', 'mailer', 'sms', 'smsGateway', 'serviceNames'],
  provides: ['notifier', 'outbox', 'notifications'],
  create: ({ config, db, clock, jobs, work, resolver }) => ({
    notifier: createNotifier({ clock, jobs, work }),
    outbox: createOutbox({ work }),
    notifications: createNotificationsService({ db, clock, config, resolver }),
  }),
  operations: [...notificationsOperations, ...templateOperations],
  jobs: [registerNotificationJobs],
  subscribers: [registerNotifications],
});

declare module '../../platform/services.js' {
  interface Services {
    notifier: Notifier;
    /** Reliable mail/SMS for everything but OTP codes: enqueue in the caller's tx (docs/architecture.md "Outbox"). */
    outbox: Outbox;
    notifications: NotificationsService;
  }
}
