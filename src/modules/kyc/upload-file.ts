import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { DAY } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import type { KycFilesDeps } from './files-deps.js';
import { EXTENSION, MAX_FILE_BYTES, MAX_UPLOADS_PER_DAY, sniffContentType, type KycContentType } from './rules.js';

/** uploadFile: a KYC upload checked by its size, its base64 and its first bytes, within the daily count. */
export async function uploadFile(
  { db, clock, storage }: KycFilesDeps,
  userId: string,
  input: { fileName: string; contentType: KycContentType; contentBase64: string },
) {
  const b64 = input.contentBase64.replace(/^data:[^,]*;base64,/, '');
  // Size is known from the length before decoding: refuse oversize without allocating it.
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  const decodedSize = Math.floor((b64.length * 3) / 4) - padding;
  if (decodedSize > MAX_FILE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than 5 MiB (${decodedSize} bytes)`);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) {
    throw new AppError('VALIDATION_FAILED', 'contentBase64 must be standard base64', {
      issues: [{ path: 'contentBase64', message: 'not valid base64' }],
    });
  }
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length === 0)
    throw new AppError('VALIDATION_FAILED', 'The file is empty', { issues: [{ path: 'contentBase64', message: 'empty file' }] });
  const actual = sniffContentType(bytes);
  if (actual !== input.contentType) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The file content is not ${input.contentType} (checked by its first bytes); only JPEG, PNG and PDF are accepted`,
      {
        issues: [{ path: 'contentBase64', message: `content is ${actual ?? 'not JPEG, PNG or PDF'}` }],
      },
    );
  }
  const now = clock.now();
  const recent = await one<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM kyc_files WHERE user_id = ${userId} AND created_at > ${new Date(now.getTime() - DAY)}`,
  );
  if ((recent?.n ?? 0) >= MAX_UPLOADS_PER_DAY)
    throw new AppError('RATE_LIMITED', `At most ${MAX_UPLOADS_PER_DAY} KYC uploads a day`, { retryAfter: 3600 });

  const path = `${randomToken(24)}.${EXTENSION[input.contentType]}`;
  const storageKey = `kyc/${userId}/${path}`;
  await storage.put(storageKey, bytes, input.contentType);
  await db.execute(sql`INSERT INTO kyc_files (path, user_id, storage_key, content_type, size_bytes, sha256, created_at)
    VALUES (${path}, ${userId}, ${storageKey}, ${input.contentType}, ${bytes.length}, ${sha256(bytes)}, ${now})`);
  return { path, contentType: input.contentType, sizeBytes: bytes.length };
}
