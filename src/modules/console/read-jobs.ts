import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { notFound } from '../../kernel/errors.js';
import { COLS, type ConsoleJobsDeps, type JobKind, type JobRow, type JobStatus, type JobViewer } from './jobs-deps.js';
import { view } from './job-views.js';

/** One operator job as the viewer reads it. */
export async function getJob(deps: ConsoleJobsDeps, id: string, viewer: JobViewer) {
  const r = await one<JobRow>(deps.db, sql`SELECT ${COLS} FROM operator_jobs WHERE id = ${id}`);
  if (!r) throw notFound('Job');
  return view(deps, r, viewer);
}

/** A page of operator jobs, newest first, by kind and status. */
export async function listJobs(
  deps: ConsoleJobsDeps,
  input: { kind?: JobKind; status?: JobStatus; limit: number; offset: number },
  viewer: JobViewer,
) {
  const list = await rows<JobRow>(
    deps.db,
    sql`SELECT ${COLS} FROM operator_jobs
        WHERE ${input.kind ? sql`kind = ${input.kind}` : sql`true`} AND ${input.status ? sql`status = ${input.status}` : sql`true`}
        ORDER BY created_at DESC, id DESC LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
  );
  return {
    items: list.slice(0, input.limit).map((r) => view(deps, r, viewer)),
    limit: input.limit,
    offset: input.offset,
    hasMore: list.length > input.limit,
  };
}
