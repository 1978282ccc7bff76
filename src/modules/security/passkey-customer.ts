import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError } from '../../kernel/errors.js';
import { stepUpRequired } from './first-credential.js';
import { paymentsOn, savePayments, type CustomerPasskeyDeps } from './passkey-settings.js';
import { paymentOptions, verifyPayment } from './passkey-payments.js';
import { signInOptions, signInWithPasskey } from './passkey-sign-in.js';
import { hasPasskey, listPasskeys, removePasskey } from './passkey-list.js';
import { registerPasskey, registrationOptions } from './passkey-register.js';

/**
 * Adding a passkey is adding a credential (docs/design.md §5): a step-up grant, or for the first passkey a sign-in
 * with an e-mailed code moments ago (first-credential.ts), as a first PIN is set during onboarding.
 */
async function proofOf(deps: CustomerPasskeyDeps, user: AuthUser, grantToken: string | undefined) {
  const proof = await deps.firstCredential.require(user, grantToken);
  if (proof === 'freshSignIn' && (await hasPasskey(deps, user.id))) throw stepUpRequired();
  return proof;
}

/**
 * Turns passkey payments on (with the transaction PIN: whoever holds only the session or only the mailbox cannot trade
 * the PIN for a passkey of their own) or off (no PIN: it only asks for more).
 */
export async function setPasskeyPayments(deps: CustomerPasskeyDeps, user: AuthUser, on: boolean, pin: string | undefined) {
  if (on) {
    if (!pin)
      throw new AppError('VALIDATION_FAILED', 'pin is required to confirm payments with a passkey', {
        issues: [{ path: 'pin', message: 'pin is required' }],
      });
    if (!(await hasPasskey(deps, user.id))) throw new AppError('CONFLICT', 'Add a passkey first (registerPasskey)');
    await deps.pins.verify(user.id, 'transaction', pin, 'INVALID_PIN');
  }
  await savePayments(deps, user.id, on);
  return { payments: on };
}

/** A customer's passkeys: the phone's fingerprint, face or lock, for sign-in and, when chosen, payments (issue 43). */
export function createCustomerPasskeys(deps: CustomerPasskeyDeps) {
  return {
    async registrationOptions(user: AuthUser, grantToken: string | undefined) {
      await proofOf(deps, user, grantToken);
      return registrationOptions(deps, user, 'customer');
    },
    /** Registers the passkey; with the transaction PIN, payments are confirmed with it from now on (setPasskeyPayments). */
    async register(
      user: AuthUser,
      input: { response: RegistrationResponseJSON; name?: string; pin?: string },
      grantToken: string | undefined,
    ) {
      const proof = await proofOf(deps, user, grantToken);
      if (input.pin) await deps.pins.verify(user.id, 'transaction', input.pin, 'INVALID_PIN');
      const created = await registerPasskey(deps, user, input.response, input.name, {
        kind: 'customer',
        onlyFirst: proof === 'freshSignIn',
      });
      if (input.pin) await savePayments(deps, user.id, true);
      return { ...created, payments: await paymentsOn(deps.db, user.id) };
    },
    async list(userId: string) {
      const [items, payments] = await Promise.all([listPasskeys(deps, userId), paymentsOn(deps.db, userId)]);
      return { items, payments };
    },
    /** Removing asks for nothing more (it only takes a way in away); the owner is told. The last one turns payments off. */
    async remove(userId: string, id: string) {
      const r = await removePasskey(deps, userId, id);
      if (!(await hasPasskey(deps, userId))) await savePayments(deps, userId, false);
      return r;
    },
    setPayments: (user: AuthUser, on: boolean, pin: string | undefined) => setPasskeyPayments(deps, user, on, pin),
    signInOptions: () => signInOptions(deps),
    signIn: (response: AuthenticationResponseJSON, meta: { ip?: string; userAgent?: string; deviceTokens?: readonly string[] }) =>
      signInWithPasskey(deps, response, meta),
    paymentOptions: (user: AuthUser, operation: string, input: Record<string, unknown>) => paymentOptions(deps, user, operation, input),
    /** The PIN gate's passkey way (http/operation-gates.ts). */
    verifyPayment: (user: AuthUser, operation: string, input: Record<string, unknown>, header: string) =>
      verifyPayment(deps, user, operation, input, header),
  };
}

export type CustomerPasskeys = ReturnType<typeof createCustomerPasskeys>;
