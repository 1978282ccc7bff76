import { z } from 'zod';
import { phoneInput } from '../../kernel/inputs.js';
import { secret } from '../../kernel/redaction.js';

/** The identity module's shared input and output shapes (other modules reach them through api.ts). */
export const emailInput = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'email is too long')
  .email('email must be a valid e-mail address');

export const usernameInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_]{3,20}$/, 'username must be 3-20 characters of a-z, 0-9 and _');

/** A person's full name as on their ID (updateProfile; the app's profile and onboarding forms use it too). */
export const fullNameInput = z
  .string()
  .trim()
  .min(2, 'fullName must be at least 2 characters')
  .max(100, 'fullName must be at most 100 characters');

/** The kernel's (the VTU inputs share it with the app); the identity module offers it through api.ts as before. */
export { phoneInput };

export const otpCodeInput = secret(z.string({ error: 'code is required' }).regex(/^\d{6}$/, 'code must be 6 digits'));

export const sessionOutput = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    tokenType: z.literal('bearer'),
    expiresIn: z.number(),
    expiresAt: z.string(),
    user: z.object({ id: z.string(), email: z.string(), username: z.string().nullable() }),
    secondFactorRequired: z.literal(true).optional().meta({
      description:
        'a customer with two-factor on, signing in on a device the account does not know: every operation but completeSignIn and signOut answers 403 SECOND_FACTOR_REQUIRED until completeSignIn accepts an authenticator or recovery code',
    }),
  })
  .meta({ id: 'Session' });

export const profileOutput = z
  .object({
    id: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    fullName: z.string().nullable(),
    phone: z.string().nullable(),
    phoneVerified: z.boolean(),
    kycTier: z.number(),
    role: z.enum(['user', 'admin']),
    operatorRoles: z
      .array(z.enum(['admin', 'finance', 'support']))
      .meta({ description: "an operator's roles (issue 30; empty for a customer): the console shows the screens they open" }),
    /** An operator froze the account (issue 30): the app says so; money operations answer ACCOUNT_FROZEN. */
    frozen: z.boolean(),
    operatorIdleMinutes: z.number().int().nullable().meta({
      description:
        "an operator's OPERATOR_IDLE_MINUTES (issue 41; null for a customer): the console signs out after this long without the person's input",
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'Profile' });
