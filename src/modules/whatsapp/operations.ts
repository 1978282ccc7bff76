import { z } from 'zod';
import { pinInput } from '../../kernel/inputs.js';
import { operationsOf } from '../../platform/operation.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['whatsapp']);
const SUFFIX = 'BearerWhatsapp';

/** A PIN link's token: 24 random bytes, base64url (32 characters). */
const tokenInput = z
  .string({ error: 'token is required' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{32}$/, 'token must be the 32-character code from the WhatsApp PIN link');

export const whatsappOperations = [
  defineOperation({
    name: 'createWhatsappLinkCode',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    scope: 'session',
    rateLimit: 'strict',
    purpose: 'a one-time code (6 digits, 10 minutes) to send from WhatsApp as "LINK <code>" to link that number to the account',
    input: z.object({}),
    output: z.object({ code: z.string(), expiresAt: z.string(), sendTo: z.string() }),
    handler: async (_input, ctx) => ctx.api.whatsapp.createLinkCode(ctx.user.id),
  }),
  defineOperation({
    name: 'getWhatsappLink',
    suffix: SUFFIX,
    method: 'GET',
    versioned: true,
    scope: 'session',
    purpose: 'whether a WhatsApp number is linked to the account, which and since when',
    input: z.object({}),
    output: z.object({ linked: z.boolean(), phone: z.string().optional(), linkedAt: z.string().optional() }),
    handler: async (_input, ctx) => ctx.api.whatsapp.getLink(ctx.user.id),
  }),
  defineOperation({
    name: 'unlinkWhatsapp',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    scope: 'session',
    purpose: "unlink the account's WhatsApp number",
    input: z.object({}),
    output: z.object({ unlinked: z.literal(true) }),
    handler: async (_input, ctx) => ctx.api.whatsapp.unlink(ctx.user.id),
  }),
  defineOperation({
    name: 'endWhatsappLink',
    suffix: SUFFIX,
    method: 'POST',
    versioned: true,
    scope: 'session',
    endsSession: true,
    purpose: '"this wasn\'t me": unlink the WhatsApp number and end every session of the account',
    input: z.object({}),
    output: z.object({ ended: z.literal(true), wasLinked: z.boolean(), sessionsEnded: z.number() }),
    handler: async (_input, ctx) => ctx.api.whatsapp.endLink(ctx.user.id),
  }),
  defineOperation({
    name: 'getWhatsappPinRequest',
    suffix: 'PublicWhatsapp',
    method: 'GET',
    versioned: true,
    rateLimit: 'auth',
    purpose: 'what a WhatsApp PIN link confirms (the token is the credential): summary, total, expiry and state',
    input: z.object({ token: tokenInput }),
    output: z.object({
      summary: z.string(),
      amountKobo: z.number(),
      expiresAt: z.string(),
      state: z.enum(['waiting', 'done', 'expired']),
    }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.whatsapp.getPinRequest(input.token),
  }),
  defineOperation({
    name: 'confirmWhatsappPin',
    suffix: 'PublicWhatsapp',
    method: 'POST',
    versioned: true,
    rateLimit: 'auth',
    purpose:
      "confirm a WhatsApp purchase (or balance) with the transaction PIN on its one-time link: carried out once, the app's PIN tries and lock",
    input: z.object({ token: tokenInput, pin: pinInput }),
    output: z.object({ state: z.literal('done'), result: z.string() }),
    errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_PIN', 'PIN_LOCKED', 'PIN_NOT_SET', 'ACCOUNT_FROZEN'],
    handler: async (input, ctx) => ctx.api.whatsapp.confirmPin(input.token, input.pin),
  }),
];
