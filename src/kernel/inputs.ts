import { z } from 'zod';
import { normalizePhone } from './phone.js';
import { secret } from './redaction.js';

/** Input schemas shared by every area (their messages name the field, as every validation error does). */
/** Query-string booleans for GET inputs. */
export const queryBool = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

export const uuidInput = (name: string) => z.string().uuid(`${name} must be a UUID`);

/** A 4-digit transaction PIN (spec 5.4) under the given field name; secret (kernel/redaction.ts): never stored. */
export const fourDigitPin = (name = 'pin') =>
  secret(z.string({ error: `${name} is required` }).regex(/^\d{4}$/, `${name} must be 4 digits`));
export const pinInput = fourDigitPin();

/**
 * A Nigerian mobile number in any common spelling (0XXXXXXXXXX, 234XXXXXXXXXX, +234XXXXXXXXXX), normalised to 11
 * digits. Here, not in the identity module, so the VTU inputs the app shares (web/src/api/schemas.ts) reach it.
 */
export const phoneInput = z
  .string({ error: 'phone is required' })
  .max(20, 'phone is too long')
  .transform((v, ctx) => {
    const p = normalizePhone(v);
    if (!p) {
      ctx.addIssue({ code: 'custom', message: 'phone must be a Nigerian mobile number (0XXXXXXXXXX, 234XXXXXXXXXX or +234XXXXXXXXXX)' });
      return z.NEVER;
    }
    return p;
  });
