import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/services.js';

export const RECEIPT_KEY_PATH = '/.well-known/receipt-key';

/** The receipt verification key, so anyone can check a receipt's signature without calling us again. */
export async function receiptKeyRoute(app: FastifyInstance, services: Pick<Services, 'receipts'>) {
  app.get(RECEIPT_KEY_PATH, { config: { operation: 'receiptKey' } }, async (_req, reply) => {
    const k = services.receipts.key;
    reply.header('cache-control', 'public, max-age=3600');
    return {
      ok: true,
      alg: 'Ed25519',
      keyId: k.keyId,
      publicKeyPem: k.publicKeyPem,
      jwk: { ...k.jwk, kid: k.keyId, alg: 'EdDSA', use: 'sig' },
      canonicalization: 'JSON with object keys sorted at every level and no whitespace; signature is base64url',
    };
  });
}
