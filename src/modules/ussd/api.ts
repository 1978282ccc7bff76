/**
 * What other parts may use of the USSD module: the callback's path and its screens' wire form (the transport's route
 * and the sandbox's phone emulator).
 */
export type { UssdRequest, UssdService } from './service.js';
export { USSD_SCREEN_MAX, wire } from './screens.js';
export { allowsGateway } from './gateway.js';

/** Africa's Talking posts each answer here (form fields sessionId, serviceCode, phoneNumber, text). */
export const USSD_CALLBACK_PATH = '/api/public/ussd/africastalking';
