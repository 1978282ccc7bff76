import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { otpCodeInput, phoneInput, sessionOutput } from '../identity/api.js';
import { loginIdentifierInput } from './login.js';
import { loginPinInput } from './inputs.js';
import { STEP_UP_METHODS } from './step-up-methods.js';
import { passkeyAssertionInput } from './passkey-inputs.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['security']);

const deviceIdInput = z
  .string({ error: 'deviceId is required' })
  .trim()
  .min(8, 'deviceId must be 8-128 characters')
  .max(128, 'deviceId must be 8-128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'deviceId may hold letters, digits and . _ : -');
const grantTokenInput = z.string().min(1, 'grantToken is required').max(200, 'grantToken is not valid');
/** Where a code comes from: a known device holds its own budget only from its own client (identity's devices). */
const codeSource = (ctx: { ip: string; userAgent?: string; deviceTokens: readonly string[] }) => ({
  ip: ctx.ip,
  userAgent: ctx.userAgent,
  deviceTokens: ctx.deviceTokens,
});

export const securityOperations = [
  // ---- 4.2 phone ----
  defineOperation({
    name: 'sendPhoneOtp',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose: 'send SMS OTP',
    rateLimit: 'auth',
    input: z.object({ phone: phoneInput }),
    output: z.object({ sent: z.boolean(), expiresInSeconds: z.number() }),
    errors: ['OTP_COOLDOWN', 'OTP_DAILY_LIMIT', 'UPSTREAM_ERROR'],
    handler: async (input, ctx) => ctx.api.security.login.sendPhoneOtp(input.phone, { ip: ctx.ip, userId: ctx.optionalUser?.id }),
  }),
  defineOperation({
    name: 'verifyPhoneOtp',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose:
      'verify phone OTP (with a bearer token the phone becomes the verified phone of the profile; replacing a verified phone needs a step-up grant: X-Grant-Token)',
    rateLimit: 'auth',
    input: z.object({ phone: phoneInput, code: otpCodeInput }),
    output: z.object({ verified: z.boolean(), attachedToProfile: z.boolean() }),
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'STEP_UP_REQUIRED'],
    handler: async (input, ctx) =>
      ctx.api.security.login.verifyPhoneOtp(input.phone, input.code, ctx.optionalUser, { ip: ctx.ip, grantToken: ctx.grantToken }),
  }),
  defineOperation({
    name: 'isPhoneVerified',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: "whether caller's phone is verified",
    input: z.object({ phone: phoneInput }),
    output: z.object({ verified: z.boolean() }),
    handler: async (input, ctx) => ctx.api.security.login.isPhoneVerified(ctx.user.id, input.phone),
  }),
  // ---- 4.2 PIN login ----
  defineOperation({
    name: 'resolveLoginIdentifier',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose:
      'resolve an @username or e-mail for PIN login: which form it is and that PIN login can be tried; the same answer whether or not an account exists',
    rateLimit: 'auth',
    input: z.object({ identifier: loginIdentifierInput }),
    output: z.object({ identifierType: z.enum(['username', 'email']), pinLoginAvailable: z.boolean() }),
    handler: async (input, ctx) => ctx.api.security.login.resolveLoginIdentifier(input.identifier),
  }),
  defineOperation({
    name: 'startPinLogin',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose: 'log in with the 6-digit login PIN',
    rateLimit: 'auth',
    input: z.object({ identifier: loginIdentifierInput, pin: loginPinInput }),
    output: z.object({ session: sessionOutput }),
    errors: ['INVALID_CREDENTIALS', 'PIN_LOCKED'],
    handler: async (input, ctx) => {
      const { session, deviceTokens } = await ctx.api.security.login.startPinLogin(input.identifier, input.pin, {
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        deviceTokens: ctx.deviceTokens,
      });
      ctx.rememberDevice(deviceTokens);
      return { session };
    },
  }),
  defineOperation({
    name: 'getLoginPinStatus',
    suffix: 'BearerAuth',
    method: 'GET',
    purpose: 'whether a login PIN is enrolled',
    input: z.object({}),
    output: z.object({ enrolled: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.security.login.loginPinStatus(ctx.user.id),
  }),
  defineOperation({
    name: 'setLoginPin',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      'enrol or update the 6-digit login PIN (needs a step-up grant: X-Grant-Token; a first PIN may instead come within 10 minutes of signing in with an e-mailed code)',
    input: z.object({ pin: loginPinInput }),
    output: z.object({ enrolled: z.boolean() }),
    errors: ['STEP_UP_REQUIRED'],
    handler: async (input, ctx) => ctx.api.security.login.setLoginPin(ctx.user, input.pin, ctx.grantToken),
  }),
  defineOperation({
    name: 'disableLoginPin',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: 'turn off PIN login (needs a step-up grant: X-Grant-Token)',
    gates: { reauth: true },
    input: z.object({}),
    output: z.object({ enrolled: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.security.login.disableLoginPin(ctx.user),
  }),
  // ---- 4.2 single-device session ----
  defineOperation({
    name: 'claimSession',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: 'claim exclusive single-device session (last claim wins; other sessions end)',
    input: z.object({
      deviceId: deviceIdInput,
      userAgent: z.string().trim().max(300, 'userAgent must be at most 300 characters').optional(),
    }),
    output: z.object({ supersededOther: z.boolean(), claimExpiresAt: z.string() }),
    errors: ['SESSION_SUPERSEDED'],
    handler: async (input, ctx) => ctx.api.security.sessions.claim(ctx.user, input.deviceId, input.userAgent ?? ctx.userAgent),
  }),
  defineOperation({
    name: 'heartbeatSession',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: 'refresh session heartbeat (a claim lapses after 2 minutes without one)',
    background: true,
    input: z.object({ deviceId: deviceIdInput }),
    output: z.object({ claimed: z.boolean(), lapsed: z.boolean(), claimExpiresAt: z.string().optional() }),
    errors: ['CONFLICT'],
    handler: async (input, ctx) => ctx.api.security.sessions.heartbeat(ctx.user, input.deviceId),
  }),
  defineOperation({
    name: 'releaseSession',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: 'release current session',
    input: z.object({}),
    output: z.object({ released: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.security.sessions.release(ctx.user),
  }),
  defineOperation({
    name: 'notifyLogin',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: 'record a login event and send an e-mail alert (once per session)',
    input: z.object({
      device: z.string().trim().min(1, 'device must not be empty').max(200, 'device must be at most 200 characters').optional(),
      method: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_:-]{1,40}$/, 'method must be 1-40 letters, digits, _ : or - (e.g. email_otp, pin)')
        .optional(),
      sessionId: z.string().uuid('sessionId must be a UUID').optional(),
    }),
    output: z.object({ recorded: z.boolean(), alerted: z.boolean() }),
    handler: async (input, ctx) => ctx.api.security.login.notifyLogin(ctx.user, input, { ip: ctx.ip, userAgent: ctx.userAgent }),
  }),
  // ---- 4.3 two-factor step-up ----
  defineOperation({
    name: 'getMyTwoFactor',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose: '2FA enrollment / challenge state; stepUpMethods: the codes verifyStepupChallenge accepts in this session',
    input: z.object({ grantToken: grantTokenInput.optional() }),
    output: z.object({
      enrolled: z.boolean(),
      confirmed: z.boolean(),
      grantValid: z.boolean(),
      stepUpMethods: z.array(z.enum(STEP_UP_METHODS)),
      recoveryCodesLeft: z.number().int().meta({ description: 'unused two-factor recovery codes (issue 43); 0 while two-factor is off' }),
    }),
    handler: async (input, ctx) => ctx.api.security.twoFactor.state(ctx.user, input.grantToken ?? ctx.grantToken),
  }),
  defineOperation({
    name: 'beginTotpEnrollment',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose: 'start TOTP enrollment (needs a step-up grant: X-Grant-Token); returns a provisioning URI, the secret and a QR code data URL',
    gates: { reauth: true },
    input: z.object({}),
    output: z.object({ uri: z.string(), secret: z.string(), qrDataUrl: z.string() }),
    errors: ['CONFLICT'],
    handler: async (_input, ctx) => ctx.api.security.twoFactor.beginEnrollment(ctx.user),
  }),
  defineOperation({
    name: 'confirmTotpEnrollment',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose: 'confirm setup with a current TOTP code (needs a step-up grant: X-Grant-Token)',
    gates: { reauth: true },
    input: z.object({ code: otpCodeInput }),
    output: z.object({
      enrolled: z.boolean(),
      confirmed: z.boolean(),
      recoveryCodes: z.array(z.string()).meta({ description: '10 one-use recovery codes (issue 43), shown this once' }),
    }),
    errors: ['OTP_INVALID', 'CONFLICT'],
    handler: async (input, ctx) => ctx.api.security.twoFactor.confirmEnrollment(ctx.user, input.code, codeSource(ctx)),
  }),
  defineOperation({
    name: 'sendStepupEmailCode',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose:
      'send an e-mail step-up code; stepUpMethods says whether it confirms in this session (with an authenticator on, only in a session opened with the login PIN; otherwise it serves a two-factor reset)',
    rateLimit: 'auth',
    input: z.object({}),
    output: z.object({ sent: z.boolean(), expiresInSeconds: z.number(), stepUpMethods: z.array(z.enum(STEP_UP_METHODS)) }),
    errors: ['OTP_COOLDOWN', 'OTP_DAILY_LIMIT'],
    handler: async (_input, ctx) => ctx.api.security.twoFactor.sendEmailCode(ctx.user, { ip: ctx.ip }),
  }),
  defineOperation({
    name: 'verifyStepupChallenge',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose:
      "verify a step-up TOTP or e-mail code (totpCode), or an operator's passkey ({method: 'passkey', assertion} after adminPasskeyStepupOptions); returns a grant valid 10 minutes for this session",
    input: z
      .object({
        totpCode: z
          .string({ error: 'totpCode must be 6 digits' })
          .regex(/^\d{6}$/, 'totpCode must be 6 digits')
          .optional(),
        method: z.enum(STEP_UP_METHODS, { error: 'method must be authenticator, email or passkey' }).optional(),
        assertion: passkeyAssertionInput.optional(),
      })
      .superRefine((v, ctx) => {
        const passkey = v.method === 'passkey';
        if (passkey && !v.assertion)
          ctx.addIssue({ code: 'custom', path: ['assertion'], message: "assertion is required with method 'passkey'" });
        if (!passkey && v.totpCode === undefined) ctx.addIssue({ code: 'custom', path: ['totpCode'], message: 'totpCode is required' });
        if (passkey ? v.totpCode !== undefined : v.assertion !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [passkey ? 'totpCode' : 'assertion'],
            message: "send totpCode, or method 'passkey' with assertion, not both",
          });
      }),
    output: z.object({ grantToken: z.string(), expiresAt: z.string() }),
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'PASSKEY_INVALID'],
    handler: async (input, ctx) =>
      input.method === 'passkey'
        ? ctx.api.security.twoFactor.verifyPasskey(ctx.user, input.assertion as unknown as AuthenticationResponseJSON)
        : ctx.api.security.twoFactor.verifyChallenge(ctx.user, input.totpCode!, codeSource(ctx)),
  }),
  defineOperation({
    name: 'disableTotp',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose: 'turn two-factor authentication off (needs a step-up grant: X-Grant-Token)',
    gates: { reauth: true },
    input: z.object({}),
    output: z.object({ enrolled: z.boolean(), confirmed: z.boolean() }),
    handler: async (_input, ctx) => ctx.api.security.twoFactor.disable(ctx.user),
  }),
  defineOperation({
    name: 'requestTwoFactorReset',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose:
      'lost authenticator: with an e-mailed code (sendStepupEmailCode) two-factor authentication is turned off after a 72-hour waiting period, unless cancelled',
    rateLimit: 'auth',
    input: z.object({ code: otpCodeInput }),
    output: z.object({ resetAt: z.string() }),
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'CONFLICT'],
    handler: async (input, ctx) => ctx.api.security.twoFactor.requestReset(ctx.user, input.code, codeSource(ctx)),
  }),
  defineOperation({
    name: 'cancelTwoFactorReset',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose: 'cancel a pending two-factor reset, with an e-mailed code (sendStepupEmailCode)',
    rateLimit: 'auth',
    input: z.object({ code: otpCodeInput }),
    output: z.object({ cancelled: z.boolean() }),
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.security.twoFactor.cancelReset(ctx.user, input.code, codeSource(ctx)),
  }),
  defineOperation({
    name: 'adminResetTwoFactor',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    gates: { stepUp: true },
    announce: true,
    purpose: "operator: turn off a user's two-factor authentication after checking who they are (audited; the owner is told)",
    input: z.object({
      userId: z.string().uuid('userId must be a UUID'),
      reason: z.string().trim().min(5, 'reason must be at least 5 characters').max(500, 'reason must be at most 500 characters'),
    }),
    output: z.object({ reset: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      ctx.audit.target('user', input.userId);
      return ctx.api.security.twoFactor.adminReset(ctx.user, input.userId, input.reason);
    },
  }),
  defineOperation({
    name: 'revokeGrant',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose: 'revoke a step-up grant',
    input: z.object({ grantToken: grantTokenInput }),
    output: z.object({ revoked: z.boolean() }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.security.twoFactor.revokeGrant(ctx.user, input.grantToken),
  }),
];
