import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { secondFactorCodeInput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['security']);

/** Issue 43: the sign-in's second step and the recovery codes (sign-in-second-step.ts, recovery-codes.ts). */
export const signInSecondFactorOperations = [
  defineOperation({
    name: 'completeSignIn',
    suffix: 'BearerAuth',
    method: 'POST',
    purpose:
      "finish a sign-in that answered secondFactorRequired (a customer with two-factor on, on a device the account does not know): the authenticator's code or one unused recovery code makes the session active and the device known; until then every other operation but signOut answers 403 SECOND_FACTOR_REQUIRED",
    rateLimit: 'auth',
    pendingSignIn: true,
    input: z.object({ code: secondFactorCodeInput }),
    output: z.object({ signedIn: z.literal(true), usedRecoveryCode: z.boolean(), recoveryCodesLeft: z.number().int() }),
    errors: ['OTP_INVALID', 'CONFLICT', 'RATE_LIMITED'],
    handler: async (input, ctx) => {
      const { deviceTokens, ...done } = await ctx.api.security.twoFactor.completeSignIn(ctx.user, input.code, {
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        deviceTokens: ctx.deviceTokens,
      });
      ctx.rememberDevice(deviceTokens);
      return done;
    },
  }),
  defineOperation({
    name: 'regenerateRecoveryCodes',
    suffix: 'Bearer2FA',
    method: 'POST',
    purpose:
      'make 10 new two-factor recovery codes, shown this once; the old ones stop working (needs a step-up grant: X-Grant-Token; the owner is told)',
    gates: { reauth: true },
    input: z.object({}),
    output: z.object({ recoveryCodes: z.array(z.string()) }),
    errors: ['CONFLICT'],
    handler: async (_input, ctx) => ctx.api.security.twoFactor.regenerateRecoveryCodes(ctx.user),
  }),
];
