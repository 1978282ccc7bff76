import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { mayRun } from '../../kernel/actor.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { safeEqual } from '../../lib/crypto.js';
import { COLS, EXPORT_RETENTION_MS, exportInput, type ConsoleJobsDeps, type JobRow } from './jobs-deps.js';
import { mayDownload, signature } from './job-views.js';

/**
 * Deletes the files of exports older than EXPORT_RETENTION_MS (customer data does not pile up in storage) and
 * marks their jobs expired; 100 a run. The file goes first: a crash in between leaves a job whose link answers
 * 404, never a file no job points to.
 */
export async function cleanupExports({ db, clock, storage }: ConsoleJobsDeps) {
  const before = new Date(clock.now().getTime() - EXPORT_RETENTION_MS);
  const old = await rows<{ id: string; file_key: string }>(
    db,
    sql`SELECT id, file_key FROM operator_jobs WHERE kind = 'export' AND file_key IS NOT NULL AND finished_at < ${before}
        ORDER BY finished_at LIMIT 100`,
  );
  for (const j of old) {
    await storage.remove(j.file_key);
    await db.execute(
      sql`UPDATE operator_jobs SET file_key = NULL, result = coalesce(result, '{}'::jsonb) || '{"expired": true}'::jsonb, updated_at = ${clock.now()}
          WHERE id = ${j.id}`,
    );
  }
  return old.length;
}

/**
 * Checks a signed export link (constant time) and opens the file; tampered or expired links are FORBIDDEN, and so
 * is a link whose operator no longer holds a role that exports (read live: a role revoked, the account closed or
 * the session ended within the link's 5 minutes, issue 41).
 */
export async function openSignedExport(
  deps: ConsoleJobsDeps,
  id: string,
  q: { expires?: unknown; by?: unknown; session?: unknown; sig?: unknown },
) {
  const { db, clock, storage } = deps;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const expires = /^\d{1,12}$/.test(text(q.expires)) ? Number(q.expires) : NaN;
  const [by, session] = [text(q.by), text(q.session)];
  if (!Number.isFinite(expires) || !safeEqual(text(q.sig), signature(deps, id, expires, by, session)))
    throw new AppError('FORBIDDEN', 'This download link is not valid');
  if (clock.now().getTime() > expires * 1000)
    throw new AppError('FORBIDDEN', 'This download link has expired; open the job again for a new one');
  const roles = await deps.liveOperatorRoles(by, session || null);
  if (!roles) throw new AppError('FORBIDDEN', 'The session this download link was made for has ended; sign in and open the job again');
  const r = await one<JobRow>(db, sql`SELECT ${COLS} FROM operator_jobs WHERE id = ${id} AND kind = 'export' AND status = 'done'`);
  if (!mayRun(roles, ['finance']) || (r && !mayDownload(r.input, mayRun(roles, []))))
    throw new AppError('FORBIDDEN', 'This download link was made for an operator who no longer holds a role that may download this export');
  if (!r?.file_key) throw notFound('Export');
  const input = exportInput.parse(r.input);
  const file = await storage.download(r.file_key, 'text/csv; charset=utf-8', `${input.kind}-${input.from}-to-${input.to}.csv`);
  if (!file) throw notFound('Export');
  return { file, fileName: `${input.kind}-${input.from}-to-${input.to}.csv` };
}
