import { z } from 'zod';

/** Input schemas shared by every area (their messages name the field, as every validation error does). */
/** Query-string booleans for GET inputs. */
export const queryBool = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

export const uuidInput = (name: string) => z.string().uuid(`${name} must be a UUID`);

/** A 4-digit transaction PIN (spec 5.4) under the given field name. */
export const fourDigitPin = (name = 'pin') => z.string({ error: `${name} is required` }).regex(/^\d{4}$/, `${name} must be 4 digits`);
export const pinInput = fourDigitPin();
