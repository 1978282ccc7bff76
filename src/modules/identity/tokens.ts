import { createPublicKey } from 'node:crypto';
import { createRemoteJWKSet, exportJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import { sha256 } from '../../lib/crypto.js';
import { loadEd25519Key } from '../../lib/keys.js';

export interface AccessClaims {
  sub: string;
  sid: string | null;
  email?: string;
  external: boolean;
}

export interface TokenService {
  issueAccess(userId: string, sessionId: string): Promise<{ token: string; expiresAt: Date; expiresIn: number }>;
  verifyAccess(token: string): Promise<AccessClaims | null>;
  jwks(): { keys: JWK[] };
}

/** Verified tokens kept by this instance: at most this many, oldest dropped first. */
export const VERIFIED_TOKEN_CACHE_MAX = 20_000;

export async function createTokenService(config: Config, clock: Clock): Promise<TokenService> {
  // Our key: AUTH_PRIVATE_KEY, else (sandbox/dev) one generated once and kept under DATA_DIR/keys.
  const privateKey = loadEd25519Key(config, config.auth.privateKeyPem, 'auth-ed25519.pem');
  const publicJwk = await exportJWK(createPublicKey(privateKey));
  const kid = sha256(JSON.stringify(publicJwk)).slice(0, 16);
  const jwk: JWK = { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' };
  const publicKey = createPublicKey(privateKey);
  const remote = config.auth.jwksUrl ? createRemoteJWKSet(new URL(config.auth.jwksUrl)) : null;
  // A token's signature, issuer and audience never change, so one verification per instance is enough; only
  // the expiry is checked again on each use (against the injected clock). Revocation is the session check's job.
  const verified = new Map<string, { claims: AccessClaims; expMs: number }>();

  return {
    async issueAccess(userId, sessionId) {
      const nowSec = Math.floor(clock.now().getTime() / 1000);
      const exp = nowSec + config.auth.accessTtlSeconds;
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'EdDSA', kid })
        .setSubject(userId)
        .setIssuer(config.auth.issuer)
        .setAudience(config.auth.audience)
        .setIssuedAt(nowSec)
        .setExpirationTime(exp)
        .sign(privateKey);
      return { token, expiresAt: new Date(exp * 1000), expiresIn: config.auth.accessTtlSeconds };
    },
    async verifyAccess(token) {
      const currentDate = clock.now();
      const hit = verified.get(token);
      if (hit) {
        if (hit.expMs > currentDate.getTime()) return hit.claims;
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: config.auth.issuer,
          audience: config.auth.audience,
          algorithms: ['EdDSA'],
          currentDate,
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
        const claims: AccessClaims = { sub: payload.sub, sid: payload.sid, external: false };
        if (verified.size >= VERIFIED_TOKEN_CACHE_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, expMs: payload.exp * 1000 });
        return claims;
      } catch {
        if (!remote || !config.auth.externalIssuer) return null;
      }
      try {
        const { payload } = await jwtVerify(token, remote, {
          issuer: config.auth.externalIssuer,
          audience: config.auth.externalAudience,
          algorithms: config.auth.externalAlgorithms,
          currentDate,
        });
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || payload.email_verified !== true) return null; // verified e-mail only
        return { sub: payload.sub, sid: null, email: payload.email.toLowerCase(), external: true };
      } catch {
        return null;
      }
    },
    jwks: () => ({ keys: [jwk] }),
  };
}
