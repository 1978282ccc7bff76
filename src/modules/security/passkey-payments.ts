import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { canonicalJson } from '../../lib/canonical-json.js';
import { sha256 } from '../../lib/crypto.js';
import { PASSKEY_CHALLENGE_TTL_MS, passkeysOf, refused, toCredential, webauthnLib } from './passkey-deps.js';
import { storeChallenge } from './passkey-challenges.js';
import { checkAssertion } from './passkey-step-up.js';
import { passkeyAssertionInput } from './passkey-inputs.js';
import { paymentsOn, type CustomerPasskeyDeps } from './passkey-settings.js';

/**
 * A payment confirmed with a passkey instead of the transaction PIN (issue 43). Its challenge is bound to one request:
 * the operation and its input as sent without the PIN (canonical JSON), hashed. The purchase carries the assertion in
 * the X-Passkey-Assertion header; the PIN gate consumes the challenge only when the request's own binding matches, so
 * a captured assertion answers no other payment, nor this one twice.
 */
export const paymentBinding = (operation: string, input: Record<string, unknown>) => {
  const { pin: _pin, ...rest } = input;
  return sha256(`${operation}\n${canonicalJson(rest)}`);
};

/** Options for navigator.credentials.get() confirming one payment: the caller's passkeys, the person verified. */
export async function paymentOptions(deps: CustomerPasskeyDeps, user: AuthUser, operation: string, input: Record<string, unknown>) {
  if (!(await paymentsOn(deps.db, user.id)))
    throw new AppError('CONFLICT', 'Payments are confirmed with the PIN; turn passkey payments on first');
  const existing = await passkeysOf(deps.db, user.id);
  if (!existing.length) throw new AppError('CONFLICT', 'No passkey is registered; add one first (registerPasskey)');
  const { generateAuthenticationOptions } = await webauthnLib();
  const options = await generateAuthenticationOptions({
    rpID: deps.webauthn.rpId,
    allowCredentials: existing.map(toCredential),
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps, user, 'payment', options.challenge, paymentBinding(operation, input));
  return options;
}

/** The X-Passkey-Assertion header: the assertion's JSON, base64url-encoded. */
function assertionOf(header: string): AuthenticationResponseJSON {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    throw refused('X-Passkey-Assertion must be the assertion as base64url-encoded JSON');
  }
  const parsed = passkeyAssertionInput.safeParse(json);
  if (!parsed.success) throw refused(`X-Passkey-Assertion: ${parsed.error.issues[0]?.message ?? 'not an assertion'}`);
  return parsed.data as unknown as AuthenticationResponseJSON;
}

/** The PIN gate's other way (http/operation-gates.ts): a passkey assertion answering this request's own challenge. */
export async function verifyPayment(
  deps: CustomerPasskeyDeps,
  user: AuthUser,
  operation: string,
  input: Record<string, unknown>,
  header: string,
): Promise<void> {
  if (header.length > 24_000) throw refused('X-Passkey-Assertion is too long');
  const assertion = assertionOf(header);
  if (!(await paymentsOn(deps.db, user.id)))
    throw new AppError('CONFLICT', 'Payments are confirmed with the PIN; turn passkey payments on first');
  const binding = paymentBinding(operation, input);
  await checkAssertion(deps, { user, purpose: 'payment', binding, requireUserVerification: true }, assertion);
}
