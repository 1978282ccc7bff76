/**
 * What other modules and the transport may use of the developers module (issue 45). Everything else in the folder is
 * the module's own.
 */
export type { ApiKeyView, DevelopersService, TestWorld } from './service.js';
export type { ForwardedAnswer, ForwardedRequest } from './test-mode.js';
export { keyModeOf, looksLikeKey } from './keys.js';
