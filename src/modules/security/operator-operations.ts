import { z } from 'zod';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { operationsOf } from '../../platform/operation.js';
import { secret } from '../../kernel/redaction.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['security']);

/** Every operator, whatever the role, manages their own passkeys (admin is always allowed besides). */
const EVERY_OPERATOR = ['finance', 'support'] as const;

const b64url = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, `${name} must be base64url (A-Z a-z 0-9 - _, no padding)`);

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const extensionResults = z.record(z.string(), z.unknown()).default({});

/** navigator.credentials.create()'s answer as @simplewebauthn/browser's startRegistration returns it. */
const registrationResponseInput = z.object(
  {
    id: b64url('response.id', 1400),
    rawId: b64url('response.rawId', 1400),
    type: z.literal('public-key', { error: 'response.type must be public-key' }),
    // The authenticator's signed answer is proof material, not a record of what the operator did: the audit row keeps
    // the credential id and the passkey it made (kernel/redaction.ts).
    response: secret(
      z.object({
        clientDataJSON: b64url('response.response.clientDataJSON', 8000),
        attestationObject: b64url('response.response.attestationObject', 16000),
        authenticatorData: b64url('response.response.authenticatorData', 8000).optional(),
        publicKey: b64url('response.response.publicKey', 4000).optional(),
        publicKeyAlgorithm: z.number().int().optional(),
        transports: z.array(z.enum(TRANSPORTS)).max(10, 'at most 10 transports').optional(),
      }),
    ),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: extensionResults,
  },
  { error: 'response must be the object startRegistration returned' },
);

/** navigator.credentials.get()'s answer as @simplewebauthn/browser's startAuthentication returns it. */
export const passkeyAssertionInput = z.object(
  {
    id: b64url('assertion.id', 1400),
    rawId: b64url('assertion.rawId', 1400),
    type: z.literal('public-key', { error: 'assertion.type must be public-key' }),
    response: secret(
      z.object({
        clientDataJSON: b64url('assertion.response.clientDataJSON', 8000),
        authenticatorData: b64url('assertion.response.authenticatorData', 8000),
        // Post-quantum ML-DSA signatures (ML-DSA-87: 4,627 bytes) run to ~6,200 base64url characters; ECDSA is under 100.
        signature: b64url('assertion.response.signature', 8000),
        userHandle: b64url('assertion.response.userHandle', 200).optional(),
      }),
    ),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: extensionResults,
  },
  { error: 'assertion must be the object startAuthentication returned' },
);

/** WebAuthn options for @simplewebauthn/browser (startRegistration / startAuthentication, as optionsJSON). */
const optionsOutput = z.object({ options: z.looseObject({ challenge: z.string(), timeout: z.number().optional() }) });

const passkeyOutput = z.object({
  id: z.string(),
  name: z.string(),
  transports: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

export const operatorAuthOperations = [
  defineOperation({
    name: 'adminPasskeyRegisterOptions',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose:
      'operator: start registering a passkey (needs a step-up grant: X-Grant-Token); pass the options to startRegistration, then call adminPasskeyRegister within 5 minutes',
    roles: EVERY_OPERATOR,
    enrolsOperatorFactor: true,
    gates: { reauth: true },
    input: z.object({}),
    output: optionsOutput,
    errors: ['CONFLICT'],
    handler: async (_input, ctx) => ({ options: { ...(await ctx.api.security.passkeys.registrationOptions(ctx.user)) } }),
  }),
  defineOperation({
    name: 'adminPasskeyRegister',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose:
      "operator: finish registering a passkey with startRegistration's response (needs a step-up grant: X-Grant-Token); it then confirms step-up and counts as the operator's second factor",
    roles: EVERY_OPERATOR,
    enrolsOperatorFactor: true,
    gates: { reauth: true },
    input: z.object({
      response: registrationResponseInput,
      name: z.string().trim().min(1, 'name must not be empty').max(64, 'name must be at most 64 characters').optional(),
    }),
    output: z.object({ id: z.string(), name: z.string(), createdAt: z.string() }),
    errors: ['PASSKEY_INVALID', 'CONFLICT'],
    handler: async (input, ctx) => {
      const created = await ctx.api.security.passkeys.register(ctx.user, input.response as RegistrationResponseJSON, input.name);
      ctx.audit.target('passkey', created.id);
      return created;
    },
  }),
  defineOperation({
    name: 'adminListPasskeys',
    suffix: 'BearerAdmin',
    method: 'GET',
    purpose: "operator: the caller's passkeys (name, transports, when registered and last used)",
    roles: EVERY_OPERATOR,
    enrolsOperatorFactor: true,
    input: z.object({}),
    output: z.object({ items: z.array(passkeyOutput) }),
    handler: async (_input, ctx) => ({ items: await ctx.api.security.passkeys.list(ctx.user.id) }),
  }),
  defineOperation({
    name: 'adminDeletePasskey',
    suffix: 'BearerAdmin',
    method: 'POST',
    purpose: "operator: delete one of the caller's passkeys (needs a step-up grant: X-Grant-Token)",
    roles: EVERY_OPERATOR,
    gates: { reauth: true },
    input: z.object({ id: z.string({ error: 'id is required' }).uuid('id must be a UUID') }),
    output: z.object({ deleted: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      ctx.audit.target('passkey', input.id);
      return ctx.api.security.passkeys.remove(ctx.user.id, input.id);
    },
  }),
  defineOperation({
    name: 'adminPasskeyStepupOptions',
    suffix: 'BearerAdmin',
    method: 'POST',
    stepUpExempt: 'issues the challenge a passkey step-up begins with',
    purpose:
      "operator: a passkey step-up challenge; pass the options to startAuthentication and its answer to verifyStepupChallenge as {method: 'passkey', assertion} within 5 minutes",
    roles: EVERY_OPERATOR,
    input: z.object({}),
    output: optionsOutput,
    errors: ['CONFLICT'],
    handler: async (_input, ctx) => ({ options: { ...(await ctx.api.security.passkeys.stepUpOptions(ctx.user)) } }),
  }),
  defineOperation({
    name: 'adminListOperatorSessions',
    suffix: 'BearerAdmin',
    method: 'GET',
    purpose: "admin: operators' live sessions (all operators, or one by userId), newest activity first, with when each ends idle",
    roles: [],
    input: z.object({ userId: z.string().uuid('userId must be a UUID').optional() }),
    output: z.object({
      items: z.array(
        z.object({
          sessionId: z.string(),
          userId: z.string(),
          email: z.string(),
          method: z.string(),
          ip: z.string().nullable(),
          userAgent: z.string().nullable(),
          createdAt: z.string(),
          lastSeenAt: z.string(),
          idleEndsAt: z.string(),
          current: z.boolean(),
        }),
      ),
    }),
    handler: async (input, ctx) => ctx.api.security.operatorSessions.list(ctx.user, input.userId),
  }),
  defineOperation({
    name: 'adminRevokeOperatorSession',
    suffix: 'BearerAdmin',
    method: 'POST',
    gates: { stepUp: true },
    purpose: "admin: end an operator's session now (its tokens, refresh included, are refused from the next request)",
    roles: [],
    input: z.object({ sessionId: z.string({ error: 'sessionId is required' }).uuid('sessionId must be a UUID') }),
    output: z.object({ revoked: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      ctx.audit.target('session', input.sessionId);
      const r = await ctx.api.security.operatorSessions.revoke(ctx.user, input.sessionId);
      ctx.audit.target('user', r.userId);
      return { revoked: r.revoked };
    },
  }),
];
