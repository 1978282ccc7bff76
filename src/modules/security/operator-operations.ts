import { z } from 'zod';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { operationsOf } from '../../platform/operation.js';
import { optionsOutput, passkeyNameInput, passkeyOutput, registrationResponseInput } from './passkey-inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['security']);

/** Every operator, whatever the role, manages their own passkeys (admin is always allowed besides). */
const EVERY_OPERATOR = ['finance', 'support'] as const;

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
      name: passkeyNameInput,
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
    purpose:
      "operators' live sessions, newest activity first, with when each ends idle: an admin's list holds every operator's (or one's, by userId), any other operator's their own (a lost phone is ended from the laptop)",
    roles: EVERY_OPERATOR,
    input: z.object({ userId: z.string().uuid('userId must be a UUID').optional() }),
    errors: ['FORBIDDEN'],
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
    purpose:
      "end an operator's session now (its tokens, refresh included, are refused from the next request): an admin any operator's, any other operator only their own",
    roles: EVERY_OPERATOR,
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
