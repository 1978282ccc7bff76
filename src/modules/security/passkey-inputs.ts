import { z } from 'zod';
import { secret } from '../../kernel/redaction.js';

/** The WebAuthn messages the passkey operations take and give (operators' and customers'). */

const b64url = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, `${name} must be base64url (A-Z a-z 0-9 - _, no padding)`);

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const extensionResults = z.record(z.string(), z.unknown()).default({});

/** navigator.credentials.create()'s answer as @simplewebauthn/browser's startRegistration returns it. */
export const registrationResponseInput = z.object(
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
export const optionsOutput = z.object({ options: z.looseObject({ challenge: z.string(), timeout: z.number().optional() }) });

export const passkeyOutput = z.object({
  id: z.string(),
  name: z.string(),
  transports: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

/** A passkey's own name (its owner's words: "Pixel 8"). */
export const passkeyNameInput = z.string().trim().min(1, 'name must not be empty').max(64, 'name must be at most 64 characters').optional();
