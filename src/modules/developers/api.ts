/**
 * What other modules and the transport may use of the developers module (issue 45). Everything else in the folder is
 * the module's own.
 */
export type { DevelopersService } from './service.js';
export type { ApiKeyView, ForwardedAnswer, ForwardedRequest, LiveWorld, TestWorld } from './deps.js';
export { keyModeOf, looksLikeKey } from './keys.js';
/** The outbound webhooks' events, bodies and signing, for the API reference (http/openapi.ts). */
export { OUTBOUND_WEBHOOKS, WEBHOOK_DELIVERY_TEXT, webhookBodySchema } from './webhook-docs.js';
