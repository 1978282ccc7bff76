/**
 * What other parts may use of the USSD module: the callback's path and its screens' wire form (the transport's route
 * and the sandbox's phone emulator).
 */
export type { UssdRequest, UssdService } from './service.js';
export { USSD_SCREEN_MAX, wire } from './screens.js';
export { allowsGateway } from './gateway.js';

/** Africa's Talking posts each answer here (form fields sessionId, serviceCode, phoneNumber, text). */
export const USSD_CALLBACK_PATH = '/api/public/ussd/africastalking';

/** The pieces the WhatsApp assistant shares with the menu: its reads, orders, words and purchase results. */
export { readsFor } from './context.js';
export { AIRTIME_RANGE, ELECTRICITY_RANGE, orderSummary, purchaseOf, type Order } from './order.js';
export { refusalText, resultText, type Bought } from './purchase-result.js';
export { LANGUAGE_NAMES, nairaText, textsOf, USSD_LANGUAGES, ussdLanguage, type UssdLanguage, type UssdTexts } from './texts.js';
export { RECENT_VERIFICATION_MS } from './deps.js';
export type { Plan, Saved } from './menu.js';
