/**
 * What other modules (and /metrics) may use of the console module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { FLOAT_CODES, balancesStatement } from './dashboard.js';
/** Whether a channel an admin can turn off (USSD, WhatsApp) takes customers now (issue 46). */
export { SWITCHABLE_CHANNELS, channelOpen } from './channels.js';
export type { SwitchableChannel } from './channels.js';
/** CSV lines with formula-escaped cells (csv.ts), for every CSV a customer or operator downloads (e-PIN batches, issue 45). */
export { csvLine } from './csv.js';
