import { codeSchema, emailSchema, pinLoginSchema } from '../../api/schemas';
import { schemaErrors, serverFieldErrors, type FieldHints } from '../../components/form';

/**
 * The sign-in forms' rules (sendLoginOtp, verifyLoginOtp, startPinLogin), loaded after the sign-in screen has drawn:
 * zod, the schemas and the form helper stay out of the JavaScript every visitor downloads first (the budget in
 * scripts/web-budget.mjs). The screen keeps its two or three values itself and asks here what is wrong with them.
 */
const HINTS: FieldHints = { email: 'fields.email', code: 'fields.code', identifier: 'fields.identifier', pin: 'fields.loginPin' };

export const emailErrors = (values: { email: string }) => schemaErrors(emailSchema, values, HINTS);
export const codeErrors = (values: { code: string }) => schemaErrors(codeSchema, values, HINTS);
export const pinLoginErrors = (values: { identifier: string; pin: string }) => schemaErrors(pinLoginSchema, values, HINTS);
/** A 400 answer's issues on these fields, in the form's words. */
export const serverErrors = (err: unknown, fields: string[]) => serverFieldErrors(err, fields, HINTS);
/** A refused login PIN's tries left or lock end (app/pin-errors.ts), loaded with these rules. */
export { loginPinMessage } from '../../app/pin-errors';
