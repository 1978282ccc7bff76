import path from 'node:path';
import type { z } from 'zod';
import type { envSchema } from './config-env.js';

type ParsedEnv = z.infer<typeof envSchema>;

/** The e-PIN (recharge card) seller (issue 45): the sandbox's simulator by default in the sandbox, else both variables. */
export function epinsConfig(e: ParsedEnv, sandbox: boolean): { url: string; key: string } | null {
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const url = e.EPIN_PROVIDER_URL ?? (sandbox ? `${publicUrl}/sandbox/providers/epins` : undefined);
  const key = e.EPIN_PROVIDER_KEY ?? (sandbox ? 'sandbox-key-epins' : undefined);
  return url && key ? { url, key } : null;
}

/** Where private files (KYC documents, exports) are kept: a local folder or an S3-compatible bucket. */
export function storageConfig(e: ParsedEnv) {
  return {
    driver: e.STORAGE_DRIVER,
    localDir: path.resolve(e.STORAGE_DIR ?? path.join(e.DATA_DIR, 'private')),
    s3: {
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    },
  };
}

/** Withdrawals to a bank account (issue 43): the fee in kobo, and the age at which a pending one waits for an operator. */
export function withdrawalConfig(e: ParsedEnv) {
  return {
    withdrawalFee: BigInt(Math.round(e.WITHDRAWAL_FEE * 100)),
    withdrawalStuckAfterMs: e.WITHDRAWAL_STUCK_AFTER_MINUTES * 60_000,
  };
}
