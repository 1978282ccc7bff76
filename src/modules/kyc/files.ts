import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { hmac, safeEqual } from '../../lib/crypto.js';
import type { StoredObject } from '../../providers/storage.js';
import { EXTENSION, FILE_PATH_RE, FILE_URL_TTL_MS, type FileRow, type KycContentType, type KycFileRef } from './rules.js';
import type { KycFilesDeps } from './files-deps.js';
import { uploadFile } from './upload-file.js';

/**
 * KYC files (docs/design.md §9): uploads checked by their first bytes and stored privately, 5-minute signed URLs for
 * the owner and operators, and the check that a submission names only the caller's own uploads.
 */
export function createKycFiles(deps: KycFilesDeps) {
  return {
    signUrl: (path: string) => signUrl(deps, path),
    fileRow,
    ownFiles,
    uploadFile: (userId: string, input: { fileName: string; contentType: KycContentType; contentBase64: string }) =>
      uploadFile(deps, userId, input),
    fileUrl: (user: AuthUser, path: string) => fileUrl(deps, user, path),
    openSignedFile: (path: string, expiresRaw: unknown, sigRaw: unknown) => openSignedFile(deps, path, expiresRaw, sigRaw),
  };
}

export type KycFiles = ReturnType<typeof createKycFiles>;

const signature = ({ config }: KycFilesDeps, path: string, expires: number) =>
  hmac(config.secrets.fileSigningSecret, `kyc-file\n${path}\n${expires}`);

/** A 5-minute signed URL of a KYC file. */
export function signUrl(deps: KycFilesDeps, path: string) {
  const { clock, config } = deps;
  const expires = Math.floor((clock.now().getTime() + FILE_URL_TTL_MS) / 1000);
  const url = `${config.publicUrl}/files/kyc/${path}?expires=${expires}&sig=${signature(deps, path, expires)}`;
  return { url, expiresAt: new Date(expires * 1000).toISOString() };
}

/** A KYC file's row, by its path. */
export async function fileRow(exec: Executor, path: string) {
  return one<FileRow>(exec, sql`SELECT path, user_id, storage_key, content_type, size_bytes FROM kyc_files WHERE path = ${path}`);
}

/** Loads the caller's own uploads for a submission; another user's path is "not found" (never revealed). */
export async function ownFiles(exec: Executor, userId: string, refs: KycFileRef[], allowed: KycContentType[]) {
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

/** Only the owner and operators get a URL; another user's path is "not found". */
export async function fileUrl(deps: KycFilesDeps, user: AuthUser, path: string) {
  const f = await fileRow(deps.db, path);
  if (!f || (f.user_id !== user.id && user.role !== 'admin')) throw notFound('File');
  return signUrl(deps, path);
}

/** Checks a signed URL (constant time) and opens the object; tampered or expired links are FORBIDDEN. */
export async function openSignedFile(
  deps: KycFilesDeps,
  path: string,
  expiresRaw: unknown,
  sigRaw: unknown,
): Promise<{ object: StoredObject; contentType: string }> {
  const { db, clock, storage } = deps;
  const expires = typeof expiresRaw === 'string' && /^\d{1,12}$/.test(expiresRaw) ? Number(expiresRaw) : NaN;
  const sig = typeof sigRaw === 'string' ? sigRaw : '';
  const valid = Number.isFinite(expires) && safeEqual(sig, signature(deps, path, expires));
  if (!valid) throw new AppError('FORBIDDEN', 'This file link is not valid');
  if (clock.now().getTime() > expires * 1000) throw new AppError('FORBIDDEN', 'This file link has expired; ask for a new one');
  if (!FILE_PATH_RE.test(path)) throw notFound('File');
  const f = await fileRow(db, path);
  if (!f) throw notFound('File');
  const object = await storage.open(f.storage_key, f.content_type);
  if (!object) throw notFound('File');
  return { object, contentType: f.content_type };
}
