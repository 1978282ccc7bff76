import { z } from 'zod';
import { configWarnings } from '../../config-production.js';
import { operationsOf } from '../../platform/operation.js';
import type { UserRow } from './service.js';
import type { OperatorRole } from '../../kernel/actor.js';
import { emailInput, fullNameInput, otpCodeInput, phoneInput, profileOutput, sessionOutput, usernameInput } from './inputs.js';

export { emailInput, otpCodeInput, phoneInput, profileOutput, sessionOutput, usernameInput };

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['config', 'db', 'identity', 'security', 'customers']);

/** Settings that weaken the deployment (OPERATOR_2FA=optional in production): the console shows each as a banner. */
const [optional2fa] = configWarnings({ production: true, operators: { twoFactor: 'optional' } });
const consoleWarningsOutput = z
  .array(z.object({ code: z.enum(['OPERATOR_2FA_OPTIONAL']), message: z.string().meta({ examples: [optional2fa.message] }) }))
  .meta({ description: 'operators only (issue 41): settings that weaken this deployment, each shown as a banner in the console' });

export const identityOperations = [
  defineOperation({
    name: 'sendLoginOtp',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose: 'send a login one-time code by e-mail',
    rateLimit: 'auth',
    input: z.object({ email: emailInput }),
    output: z.object({}),
    errors: ['OTP_COOLDOWN', 'OTP_DAILY_LIMIT', 'EMAIL_UNAVAILABLE'],
    handler: async (input, ctx) => {
      await ctx.api.identity.sendLoginOtp(input.email, { ip: ctx.ip });
      return {};
    },
  }),
  defineOperation({
    name: 'getOtpCooldown',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose: 'cooldown before another OTP',
    rateLimit: 'auth',
    input: z.object({ email: emailInput }),
    output: z.object({ secondsRemaining: z.number() }),
    handler: async (input, ctx) => ({ secondsRemaining: await ctx.api.identity.otpCooldown(input.email) }),
  }),
  defineOperation({
    name: 'verifyLoginOtp',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose: 'verify the e-mailed login code and open a session (creates the account on first login)',
    rateLimit: 'auth',
    input: z.object({
      email: emailInput,
      code: otpCodeInput,
      referralCode: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z0-9]{4,16}$/, 'referralCode must be 4-16 letters or digits')
        .optional(),
    }),
    output: z.object({ session: sessionOutput }),
    errors: ['OTP_INVALID', 'OTP_EXPIRED', 'ACCOUNT_CLOSED'],
    handler: async (input, ctx) => {
      const { session, deviceTokens } = await ctx.api.identity.verifyLoginOtp(input, {
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        deviceTokens: ctx.deviceTokens,
      });
      ctx.rememberDevice(deviceTokens);
      return { session };
    },
  }),
  defineOperation({
    name: 'refreshSession',
    suffix: 'PublicAuth',
    method: 'POST',
    purpose: 'exchange a refresh token for a new session (rotation; reuse revokes the family)',
    rateLimit: 'auth',
    input: z.object({ refreshToken: z.string().min(10, 'refreshToken is not valid').max(200, 'refreshToken is not valid') }),
    output: z.object({ session: sessionOutput }),
    errors: ['UNAUTHENTICATED', 'SESSION_SUPERSEDED'],
    refreshTokenFromCookie: true,
    background: true,
    handler: async (input, ctx) => ({ session: await ctx.api.identity.refreshSession(input.refreshToken) }),
  }),
  defineOperation({
    name: 'signOut',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose: "end the caller's session (also one still waiting for its second factor)",
    input: z.object({}),
    output: z.object({}),
    endsSession: true,
    pendingSignIn: true,
    handler: async (_input, ctx) => {
      await ctx.api.identity.signOut(ctx.user.sessionId, ctx.user.id);
      return {};
    },
  }),
  defineOperation({
    name: 'getProfile',
    suffix: 'BearerSettings',
    method: 'GET',
    purpose: "the caller's profile; for an operator also the settings that weaken the deployment (the console's banners)",
    input: z.object({}),
    output: z.object({ profile: profileOutput, consoleWarnings: consoleWarningsOutput.optional() }),
    handler: async (_input, ctx) => {
      const u = (await ctx.api.identity.getUser(ctx.api.db, ctx.user.id))!;
      const profile = toProfile(
        u,
        ctx.user,
        ctx.user.frozen ?? (await ctx.api.customers.isFrozen(ctx.user.id)),
        ctx.api.identity.operatorIdleMinutes,
      );
      // How the deployment is weakened is for its operators only, not for every customer to read.
      return ctx.user.operatorRoles.length ? { profile, consoleWarnings: configWarnings(ctx.api.config) } : { profile };
    },
  }),
  defineOperation({
    name: 'updateProfile',
    suffix: 'BearerSettings',
    method: 'POST',
    purpose:
      'update username, full name or phone (replacing a set username or full name, or a verified phone, needs a step-up grant: X-Grant-Token)',
    input: z.object({
      username: usernameInput.optional(),
      fullName: fullNameInput.optional(),
      phone: phoneInput.optional(),
    }),
    output: z.object({ profile: profileOutput }),
    errors: ['USERNAME_TAKEN', 'STEP_UP_REQUIRED'],
    handler: async (input, ctx) => {
      const current = (await ctx.api.identity.getUser(ctx.api.db, ctx.user.id))!;
      const replacesVerifiedPhone = input.phone !== undefined && input.phone !== current.phone && Boolean(current.phone_verified_at);
      // Replacing a set username (a login identifier, and the name senders pay to) or full name (Tier 2's name match)
      // needs a recent proof, as a credential does: a stolen access token alone changes neither. Filling an empty one
      // (the first steps after signing up) does not.
      const replaces = (next: string | undefined, now: string | null) => next !== undefined && now !== null && next !== now;
      const renames = replaces(input.username, current.username) || replaces(input.fullName, current.full_name);
      // Replacing a verified phone is a credential change: a recent proof, and the owner is told.
      if (replacesVerifiedPhone || renames) await ctx.api.security.twoFactor.reauth.require(ctx.user, ctx.grantToken);
      const u = await ctx.api.identity.updateProfile(ctx.user.id, input);
      if (replacesVerifiedPhone) await ctx.api.db.transaction((tx) => ctx.api.security.notices.notify(tx, ctx.user.id, 'phone_changed'));
      return {
        profile: toProfile(
          u,
          ctx.user,
          ctx.user.frozen ?? (await ctx.api.customers.isFrozen(ctx.user.id)),
          ctx.api.identity.operatorIdleMinutes,
        ),
      };
    },
  }),
];

export function toProfile(
  u: Omit<UserRow, 'status'>,
  who: { role: 'user' | 'admin'; operatorRoles: readonly OperatorRole[] },
  frozen: boolean,
  operatorIdleMinutes: number,
) {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    fullName: u.full_name,
    phone: u.phone,
    phoneVerified: Boolean(u.phone_verified_at),
    kycTier: u.kyc_tier,
    role: who.role,
    operatorRoles: [...who.operatorRoles],
    frozen,
    operatorIdleMinutes: who.operatorRoles.length ? operatorIdleMinutes : null,
    createdAt: new Date(u.created_at).toISOString(),
  };
}
