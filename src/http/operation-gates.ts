import { AppError } from '../kernel/errors.js';
import type { OpContext } from '../platform/operation.js';
import { passkeyPaymentOf, type Prepared } from './operation-input.js';
import type { OperationSetup } from './operation-setup.js';

/**
 * The operation's precheck, then its gates in the declared order (docs/architecture.md "Adding an operation"):
 * the transaction PIN, the KYC tier, step-up and re-authentication. Each throws its AppError.
 */
export async function passGates({ op, services }: OperationSetup, input: Prepared['input'], ctx: OpContext): Promise<void> {
  if (op.precheck) await op.precheck(input, ctx);
  const gates = op.gates;
  if (!gates) return;
  // Issue 45: a key never needs the PIN; its scopes and spend limit stand in for it (operation-key.ts).
  if (gates.pin && !ctx.user.apiKey) {
    // Issue 43: or a passkey assertion answering this very request's challenge, where the customer chose it.
    const passkey = passkeyPaymentOf(ctx);
    if (passkey) await services.security.customerPasskeys.verifyPayment(ctx.user, op.name, passkey.input, passkey.header);
    else await services.pins.verify(ctx.user.id, 'transaction', String((input as { pin?: unknown }).pin ?? ''), 'INVALID_PIN');
  }
  if (gates.kycTier && ctx.user.kycTier < gates.kycTier) {
    throw new AppError('KYC_TIER_REQUIRED', `KYC Tier ${gates.kycTier} is required for this operation`);
  }
  // Issue 45: nor a step-up: no one stands at a screen to confirm, and the key's scope is the confirmation.
  if (gates.stepUp && !ctx.user.apiKey) {
    if (!services.stepUp) throw new Error(`${op.name} declares a step-up gate but no step-up service is registered`);
    await services.stepUp.require(ctx.user, ctx.grantToken);
  }
  if (gates.reauth) await services.security.twoFactor.reauth.require(ctx.user, ctx.grantToken);
}
