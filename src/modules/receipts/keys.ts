import { createPublicKey, sign, verify } from 'node:crypto';
import type { Config } from '../../config.js';
import { sha256 } from '../../lib/crypto.js';
import { loadEd25519Key } from '../../lib/keys.js';

/**
 * The receipt signing key (Ed25519): RECEIPT_SIGNING_KEY (PKCS#8 PEM; required in production), else one
 * generated once and kept under DATA_DIR/keys so receipts stay verifiable across restarts of a sandbox.
 */
export interface ReceiptKey {
  keyId: string;
  publicKeyPem: string;
  jwk: { kty: string; crv: string; x: string };
  sign(message: Buffer): string;
  verify(message: Buffer, signature: string): boolean;
}

export function loadReceiptKey(config: Config): ReceiptKey {
  const privateKey = loadEd25519Key(config, config.receiptSigningKeyPem, 'receipt-ed25519.pem');
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('RECEIPT_SIGNING_KEY must be an Ed25519 private key (PKCS#8 PEM)');
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const jwk = publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string };
  return {
    keyId: sha256(der).slice(0, 16),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    sign: (message) => sign(null, message, privateKey).toString('base64url'),
    verify: (message, signature) => {
      try {
        return verify(null, message, publicKey, Buffer.from(signature, 'base64url'));
      } catch {
        return false;
      }
    },
  };
}

export { canonicalJson } from '../../lib/canonical-json.js';
