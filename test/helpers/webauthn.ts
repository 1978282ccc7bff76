import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A software authenticator for tests of operator passkeys: an EC P-256 key pair from node:crypto, and the
 * attestation ('none') and assertion responses a browser's navigator.credentials would hand back, built by hand
 * (CBOR, authenticator data, ES256 signatures), in the JSON form @simplewebauthn/browser returns. Each part can be
 * spoiled (origin, challenge, counter, signature) to prove the service refuses it.
 */

/** The few CBOR shapes WebAuthn needs (RFC 8949): unsigned/negative ints, byte and text strings, maps. */
export function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const s = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, s.length), s]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const counterBytes = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export interface Spoil {
  origin?: string;
  challenge?: string;
  rpId?: string;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** Flip a bit of the signature. */
  badSignature?: boolean;
}

export type SoftAuthenticator = ReturnType<typeof createSoftAuthenticator>;

export function createSoftAuthenticator(rp: { origin: string; rpId: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(16);
  let counter = 0;

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');

  return {
    credentialId: credentialId.toString('base64url'),
    get counter() {
      return counter;
    },

    /** navigator.credentials.create() answering `options` (startRegistration's JSON). */
    register(options: { challenge: string }, spoil: Spoil = {}) {
      const coseKey = new Map<number, number | Buffer>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const authData = Buffer.concat([
        sha256(spoil.rpId ?? rp.rpId),
        Buffer.from([0x45]), // user present, user verified, attested credential data
        counterBytes(counter),
        Buffer.alloc(16), // AAGUID
        Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
        credentialId,
        cbor(coseKey),
      ]);
      const clientDataJSON = clientData('webauthn.create', spoil.challenge ?? options.challenge, spoil.origin ?? rp.origin);
      return {
        id: credentialId.toString('base64url'),
        rawId: credentialId.toString('base64url'),
        type: 'public-key' as const,
        response: {
          clientDataJSON: clientDataJSON.toString('base64url'),
          attestationObject: cbor({ fmt: 'none', attStmt: new Map(), authData }).toString('base64url'),
          transports: ['internal' as const],
        },
        clientExtensionResults: {},
      };
    },

    /** navigator.credentials.get() answering `options` (startAuthentication's JSON). */
    assert(options: { challenge: string }, spoil: Spoil = {}) {
      const count = spoil.counter ?? counter + 1;
      if (spoil.counter === undefined) counter = count;
      const authData = Buffer.concat([sha256(spoil.rpId ?? rp.rpId), Buffer.from([0x05]), counterBytes(count)]);
      const clientDataJSON = clientData('webauthn.get', spoil.challenge ?? options.challenge, spoil.origin ?? rp.origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      if (spoil.badSignature) signature[signature.length - 1] ^= 0x01;
      return {
        id: credentialId.toString('base64url'),
        rawId: credentialId.toString('base64url'),
        type: 'public-key' as const,
        response: {
          clientDataJSON: clientDataJSON.toString('base64url'),
          authenticatorData: authData.toString('base64url'),
          signature: signature.toString('base64url'),
        },
        clientExtensionResults: {},
      };
    },
  };
}
