import { cleanupExports, openSignedExport } from './export-files.js';
import type { ConsoleJobsDeps, ExportInput, JobKind, JobStatus, JobViewer } from './jobs-deps.js';
import { getJob, listJobs } from './read-jobs.js';
import { runJob } from './run-job.js';
import { startExport, startJob } from './start-job.js';

/**
 * Long operator actions as jobs with progress (issue 30): a row in operator_jobs that operators read, run by one
 * queue job (`console.run`) on the existing queue. Reconciliation and bulk requery are one at a time (starting
 * another answers the open one's id); exports write a CSV file page by page and hand it to the file storage, then
 * a short-lived signed URL downloads it (as KYC files: docs/design.md §9).
 */
export function createConsoleJobs(deps: ConsoleJobsDeps) {
  return {
    startReconciliation: (actorId: string) => startJob(deps, actorId, 'reconciliation', {}),
    startBulkRequery: (actorId: string, ids?: string[]) => startJob(deps, actorId, 'bulk_requery', ids ? { ids: [...new Set(ids)] } : {}),
    startExport: (actorId: string, actorIsAdmin: boolean, input: ExportInput) => startExport(deps, actorId, actorIsAdmin, input),
    getJob: (id: string, viewer: JobViewer) => getJob(deps, id, viewer),
    listJobs: (input: { kind?: JobKind; status?: JobStatus; limit: number; offset: number }, viewer: JobViewer) =>
      listJobs(deps, input, viewer),
    run: (id: string, queueJobId: string) => runJob(deps, id, queueJobId),
    cleanupExports: () => cleanupExports(deps),
    openSignedExport: (id: string, q: Parameters<typeof openSignedExport>[2]) => openSignedExport(deps, id, q),
  };
}

export type ConsoleJobs = ReturnType<typeof createConsoleJobs>;
