/**
 * What other modules may use of the notifications module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export type { NotificationInput, Notifier } from './notifier.js';
export type { Outbox, OutboxEmail } from './outbox.js';
/** The saved language of an account, for the service's own e-mails and SMS (codes) (issue 43). */
export { savedLanguage } from './delivery.js';
/** The service's code texts for an account in its saved language, with the admins' wording (issue 44). */
export { codeTextsFor } from './templates.js';
