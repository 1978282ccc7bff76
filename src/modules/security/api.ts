/**
 * What other modules may use of the security module besides its services (container): the first-PIN proof's
 * refusal and type (issue 29).
 */
export { stepUpRequired } from './first-credential.js';
export type { FirstCredential } from './first-credential.js';
