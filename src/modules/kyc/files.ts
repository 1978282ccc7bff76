import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { hmac, randomToken, safeEqual, sha256 } from '../../lib/crypto.js';
import type { FileStorage, StoredObject } from '../../providers/storage.js';
import {
  EXTENSION,
  FILE_PATH_RE,
  FILE_URL_TTL_MS,
  MAX_FILE_BYTES,
  MAX_UPLOADS_PER_DAY,
  sniffContentType,
  type FileRow,
  type KycContentType,
  type KycFileRef,
} from './rules.js';

/**
 * KYC files (docs/design.md §9): uploads checked by their first bytes and stored privately, 5-minute signed URLs for
 * the owner and operators, and the check that a submission names only the caller's own uploads.
 */
export function createKycFiles(deps: { db: Db; clock: Clock; config: Config; storage: FileStorage }) {
  const { db, clock, config, storage } = deps;
  const secret = config.secrets.fileSigningSecret;

  const signature = (path: string, expires: number) => hmac(secret, `kyc-file\n${path}\n${expires}`);

  function signUrl(path: string) {
    const expires = Math.floor((clock.now().getTime() + FILE_URL_TTL_MS) / 1000);
    const url = `${config.publicUrl}/files/kyc/${path}?expires=${expires}&sig=${signature(path, expires)}`;
    return { url, expiresAt: new Date(expires * 1000).toISOString() };
  }

  async function fileRow(exec: Executor, path: string) {
    return one<FileRow>(exec, sql`SELECT path, user_id, storage_key, content_type, size_bytes FROM kyc_files WHERE path = ${path}`);
  }

  /** Loads the caller's own uploads for a submission; another user's path is "not found" (never revealed). */
  async function ownFiles(exec: Executor, userId: string, refs: KycFileRef[], allowed: KycContentType[]) {
    for (const ref of refs) {
      const f = await fileRow(exec, ref.path);
      if (!f || f.user_id !== userId) throw new AppError('NOT_FOUND', `File ${ref.path} not found; upload it with uploadKycFile first`);
      if (!allowed.includes(f.content_type)) {
        throw new AppError('VALIDATION_FAILED', `${ref.role} must be ${allowed.map((t) => EXTENSION[t].toUpperCase()).join(' or ')}`, {
          issues: [{ path: ref.role, message: `file type ${f.content_type} is not accepted here` }],
        });
      }
    }
  }

  return {
    signUrl,
    fileRow,
    ownFiles,

    async uploadFile(userId: string, input: { fileName: string; contentType: KycContentType; contentBase64: string }) {
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
    },

    /** Only the owner and operators get a URL; another user's path is "not found". */
    async fileUrl(user: AuthUser, path: string) {
      const f = await fileRow(db, path);
      if (!f || (f.user_id !== user.id && user.role !== 'admin')) throw notFound('File');
      return signUrl(path);
    },

    /** Checks a signed URL (constant time) and opens the object; tampered or expired links are FORBIDDEN. */
    async openSignedFile(path: string, expiresRaw: unknown, sigRaw: unknown): Promise<{ object: StoredObject; contentType: string }> {
      const expires = typeof expiresRaw === 'string' && /^\d{1,12}$/.test(expiresRaw) ? Number(expiresRaw) : NaN;
      const sig = typeof sigRaw === 'string' ? sigRaw : '';
      const valid = Number.isFinite(expires) && safeEqual(sig, signature(path, expires));
      if (!valid) throw new AppError('FORBIDDEN', 'This file link is not valid');
      if (clock.now().getTime() > expires * 1000) throw new AppError('FORBIDDEN', 'This file link has expired; ask for a new one');
      if (!FILE_PATH_RE.test(path)) throw notFound('File');
      const f = await fileRow(db, path);
      if (!f) throw notFound('File');
      const object = await storage.open(f.storage_key, f.content_type);
      if (!object) throw notFound('File');
      return { object, contentType: f.content_type };
    },
  };
}

export type KycFiles = ReturnType<typeof createKycFiles>;
