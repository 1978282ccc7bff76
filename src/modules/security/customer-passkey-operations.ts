import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { operationsOf } from '../../platform/operation.js';
import { pinInput, uuidInput } from '../../kernel/inputs.js';
import { sessionOutput } from '../identity/api.js';
import { optionsOutput, passkeyAssertionInput, passkeyNameInput, passkeyOutput, registrationResponseInput } from './passkey-inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['security']);

/** An operation of the registry, by its name (buyAirtime, transfer, ...). */
const operationName = z
  .string({ error: 'operation is required' })
  .regex(/^[a-z][A-Za-z0-9]{1,63}$/, 'operation must be the name of an operation that asks for the transaction PIN (e.g. buyAirtime)');

/**
 * Issue 43: a customer's passkeys (the phone's fingerprint, face or lock): registered during onboarding or in Settings,
 * a passwordless sign-in, and, when the customer chooses it, the confirmation of a payment instead of the PIN.
 */
export const customerPasskeyOperations = [
  defineOperation({
    name: 'passkeyRegisterOptions',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      'start registering a passkey on this phone (fingerprint, face or its lock); pass the options to startRegistration, then call registerPasskey within 5 minutes. Needs a step-up grant (X-Grant-Token), except for a first passkey within 10 minutes of signing in with an e-mailed code',
    input: z.object({}),
    output: optionsOutput,
    errors: ['STEP_UP_REQUIRED', 'CONFLICT'],
    handler: async (_input, ctx) => ({
      options: { ...(await ctx.api.security.customerPasskeys.registrationOptions(ctx.user, ctx.grantToken)) },
    }),
  }),
  defineOperation({
    name: 'registerPasskey',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      "finish registering a passkey with startRegistration's response (the same proof as passkeyRegisterOptions); with the transaction PIN (pin), payments are confirmed with the passkey from now on; the owner is told",
    input: z.object({ response: registrationResponseInput, name: passkeyNameInput, pin: pinInput.optional() }),
    output: z.object({ id: z.string(), name: z.string(), createdAt: z.string(), payments: z.boolean() }),
    errors: ['PASSKEY_INVALID', 'CONFLICT', 'STEP_UP_REQUIRED', 'INVALID_PIN', 'PIN_LOCKED', 'PIN_NOT_SET'],
    handler: async (input, ctx) =>
      ctx.api.security.customerPasskeys.register(
        ctx.user,
        { response: input.response as RegistrationResponseJSON, name: input.name, pin: input.pin },
        ctx.grantToken,
      ),
  }),
  defineOperation({
    name: 'listPasskeys',
    suffix: 'BearerAuth',
    method: 'GET',
    purpose: "the caller's passkeys (name, when added and last used) and whether payments are confirmed with them",
    scope: 'session',
    input: z.object({}),
    output: z.object({ items: z.array(passkeyOutput), payments: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.security.customerPasskeys.list(ctx.user.id),
  }),
  defineOperation({
    name: 'deletePasskey',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      "remove one of the caller's passkeys (it no longer signs in or pays; without passkeys payments go back to the PIN); the owner is told",
    input: z.object({ id: uuidInput('id') }),
    output: z.object({ deleted: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.security.customerPasskeys.remove(ctx.user.id, input.id),
  }),
  defineOperation({
    name: 'setPasskeyPayments',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      'confirm payments with a passkey instead of the transaction PIN (on: needs the PIN and a passkey), or with the PIN again (off)',
    input: z.object({ on: z.boolean({ error: 'on must be true or false' }), pin: pinInput.optional() }),
    output: z.object({ payments: z.boolean() }),
    errors: ['CONFLICT', 'INVALID_PIN', 'PIN_LOCKED', 'PIN_NOT_SET'],
    handler: async (input, ctx) => ctx.api.security.customerPasskeys.setPayments(ctx.user, input.on, input.pin),
  }),
  defineOperation({
    name: 'passkeyPaymentOptions',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      'a challenge confirming one payment with a passkey: name the operation and its input as it will be sent (without pin); pass the options to startAuthentication and send the operation with its answer, base64url JSON, in X-Passkey-Assertion instead of the pin, within 5 minutes, once',
    input: z.object({ operation: operationName, input: z.record(z.string(), z.unknown(), { error: 'input must be an object' }) }),
    output: optionsOutput,
    errors: ['CONFLICT'],
    handler: async (input, ctx) => ({
      options: { ...(await ctx.api.security.customerPasskeys.paymentOptions(ctx.user, input.operation, input.input)) },
    }),
  }),
  defineOperation({
    name: 'passkeySignInOptions',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose:
      'a challenge for signing in with a passkey, no address asked: pass the options to startAuthentication, then call signInWithPasskey within 5 minutes',
    rateLimit: 'auth',
    input: z.object({}),
    output: optionsOutput,
    handler: async (_input, ctx) => ({ options: { ...(await ctx.api.security.customerPasskeys.signInOptions()) } }),
  }),
  defineOperation({
    name: 'signInWithPasskey',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose:
      "sign in with startAuthentication's answer to passkeySignInOptions: the passkey's owner gets a session; a passkey verifies the person on the phone, so it is the second factor too (no completeSignIn)",
    rateLimit: 'auth',
    input: z.object({ assertion: passkeyAssertionInput }),
    output: z.object({ session: sessionOutput }),
    errors: ['PASSKEY_INVALID', 'INVALID_CREDENTIALS'],
    handler: async (input, ctx) => {
      const { session, deviceTokens } = await ctx.api.security.customerPasskeys.signIn(
        input.assertion as unknown as AuthenticationResponseJSON,
        {
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          deviceTokens: ctx.deviceTokens,
        },
      );
      ctx.rememberDevice(deviceTokens);
      return { session };
    },
  }),
];
