import { type PostPath } from './client';
import * as api from './calls';

/**
 * Passkeys on this phone (issue 43): its own authenticator (fingerprint, face or the screen lock) through WebAuthn,
 * with @simplewebauthn/browser loaded only when a passkey is used.
 */

/** Whether this phone has an authenticator that verifies the person (fingerprint, face or its lock). */
export async function platformPasskeyAvailable(): Promise<boolean> {
  if (typeof window === 'undefined' || !window.PublicKeyCredential?.isUserVerifyingPlatformAuthenticatorAvailable) return false;
  try {
    return await window.PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable();
  } catch {
    return false;
  }
}

const webauthn = () => import('@simplewebauthn/browser');
type Options<F extends (a: { optionsJSON: never }) => unknown> = Parameters<F>[0]['optionsJSON'];

/**
 * Registers a passkey on this phone. With the transaction PIN just typed, payments are confirmed with it from now on.
 * `grantToken`: a step-up grant, unless this is a first passkey right after an e-mail-code sign-in.
 */
export async function addPasskey(opts: { pin?: string; grantToken?: string } = {}) {
  const { startRegistration } = await webauthn();
  const { options } = await api.passkeyRegisterOptions({}, { grantToken: opts.grantToken });
  const response = await startRegistration({ optionsJSON: options as unknown as Options<typeof startRegistration> });
  return api.registerPasskey({ response: response as never, ...(opts.pin ? { pin: opts.pin } : {}) }, { grantToken: opts.grantToken });
}

/** Signs in with a passkey this phone holds for the site (no address asked): the new session. */
export async function passkeySession() {
  const { startAuthentication } = await webauthn();
  const { options } = await api.passkeySignInOptions({});
  const assertion = await startAuthentication({ optionsJSON: options as unknown as Options<typeof startAuthentication> });
  return (await api.signInWithPasskey({ assertion: assertion as never })).session;
}

/** The operation's name in the registry, from its path (/_serverFn/buyAirtimeBearerVTU is buyAirtime). */
const operationOf = (path: PostPath) => path.replace(/^\/_serverFn\//, '').replace(/(Bearer|Public)[A-Za-z0-9]*$/, '');

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * Confirms one payment with a passkey: a challenge bound to this operation and this input (as it is sent, without the
 * PIN), answered on the phone; the answer goes in the call's `passkeyAssertion`, once.
 */
export async function paymentAssertion(path: PostPath, input: Record<string, unknown>): Promise<string> {
  const { startAuthentication } = await webauthn();
  const { options } = await api.passkeyPaymentOptions({ operation: operationOf(path), input });
  const assertion = await startAuthentication({ optionsJSON: options as unknown as Options<typeof startAuthentication> });
  return base64url(JSON.stringify(assertion));
}
