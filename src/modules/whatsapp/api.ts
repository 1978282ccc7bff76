/**
 * What other parts may use of the WhatsApp module: the webhook's path and signature check (the transport's route),
 * the receipt image's path, and the message shapes (the sandbox's Cloud API simulator).
 */
export type { WhatsappService } from './service.js';
export { messagesOf, signatureValid } from './webhook.js';
export { RECEIPT_IMAGE_PATH } from './receipt-url.js';

/** The Cloud API posts its webhooks here (and GETs it for the subscription handshake). */
export const WHATSAPP_WEBHOOK_PATH = '/api/public/whatsapp/webhook';
