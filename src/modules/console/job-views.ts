import { hmac } from '../../lib/crypto.js';
import { DOWNLOAD_URL_TTL_MS, iso, type ConsoleJobsDeps, type JobRow, type JobViewer } from './jobs-deps.js';

type ViewDeps = Pick<ConsoleJobsDeps, 'clock' | 'config'>;

/** The signature of an export's download link, for one operator's session. */
export const signature = ({ config }: Pick<ConsoleJobsDeps, 'config'>, id: string, expires: number, userId: string, sessionId: string) =>
  hmac(config.secrets.fileSigningSecret, `export-file\n${id}\n${expires}\n${userId}\n${sessionId}`);

/** A link for one operator's session (issue 41): it opens the file only while they still hold the role for it. */
function downloadUrl(deps: ViewDeps, id: string, viewer: JobViewer) {
  const expires = Math.floor((deps.clock.now().getTime() + DOWNLOAD_URL_TTL_MS) / 1000);
  const session = viewer.sessionId ?? '';
  const sig = signature(deps, id, expires, viewer.userId, session);
  return {
    url: `${deps.config.publicUrl}/files/exports/${id}.csv?expires=${expires}&by=${viewer.userId}&session=${session}&sig=${sig}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/** The audit trail is exported and read by admins only (adminSearchAudit is admin only): others see no link. */
export const mayDownload = (input: unknown, isAdmin: boolean) => isAdmin || (input as { kind?: string } | null)?.kind !== 'audit';

/** A job as an operator reads it, with a fresh download link when the viewer may download its file. */
export function view(deps: ViewDeps, r: JobRow, viewer: JobViewer) {
  const link =
    r.kind === 'export' && r.status === 'done' && r.file_key && mayDownload(r.input, viewer.isAdmin)
      ? downloadUrl(deps, r.id, viewer)
      : null;
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    input: (r.input ?? {}) as Record<string, unknown>,
    progress: { done: r.progress_done, total: r.progress_total },
    result: (r.result ?? undefined) as Record<string, unknown> | undefined,
    error: r.error ?? undefined,
    downloadUrl: link?.url,
    downloadExpiresAt: link?.expiresAt,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at).toISOString(),
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
  };
}
