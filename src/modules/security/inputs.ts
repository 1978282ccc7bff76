import { z } from 'zod';
import { secret } from '../../kernel/redaction.js';

/**
 * The sign-in by PIN fields (resolveLoginIdentifier, startPinLogin, setLoginPin), shared with the app's sign-in and
 * login-PIN forms (web/src/api/schemas.ts): this file imports only zod and the kernel.
 */

/** The 6-digit login PIN (the transaction PIN is the kernel's 4-digit one); secret (kernel/redaction.ts). */
export const loginPinInput = secret(z.string({ error: 'pin is required' }).regex(/^\d{6}$/, 'pin must be 6 digits'));

/**
 * The identifier as typed, before it is read as an @username or an e-mail (the service's loginIdentifierInput in
 * login.ts reads it; the app sends what was typed).
 */
export const loginIdentifierText = z.string({ error: 'identifier is required' }).trim().toLowerCase().max(254, 'identifier is too long');

/**
 * Issue 43: the sign-in's second step (completeSignIn): the authenticator's 6-digit code or a recovery code
 * (XXXXX-XXXXX, any case, the dash and spaces optional); secret. Shared with the app's sign-in.
 */
export const secondFactorCodeInput = secret(
  z
    .string({ error: 'code is required' })
    .trim()
    .regex(
      /^(\d{6}|[A-Za-z0-9]{5}[\s-]?[A-Za-z0-9]{5})$/,
      'code must be the 6-digit code from your authenticator app or a recovery code (XXXXX-XXXXX)',
    ),
);
