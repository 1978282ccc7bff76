import { sql } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import { page } from '../../kernel/paging.js';
import { sha256 } from '../../lib/crypto.js';
import { uuid } from '../../kernel/ids.js';
import type { ReportsDeps } from './deps.js';

export interface IssueReportInput {
  message: string;
  stack?: string;
  url?: string;
  userAgent?: string;
  appVersion?: string;
}

/** Public report-issue: stored for operators; the client IP is kept only as a salted hash (abuse triage). */
export async function recordIssue({ db, clock, ipSalt }: ReportsDeps, input: IssueReportInput, ip: string) {
  const id = uuid();
  await db.execute(sql`INSERT INTO issue_reports (id, message, stack, url, user_agent, app_version, ip_hash, created_at)
                       VALUES (${id}, ${input.message}, ${input.stack ?? null}, ${input.url ?? null}, ${input.userAgent ?? null},
                               ${input.appVersion ?? null}, ${sha256(`${ipSalt}:${ip}`).slice(0, 32)}, ${clock.now()})`);
  return { id };
}

/** The reported issues for operators, newest first. */
export async function adminListIssues({ replica }: ReportsDeps, opts: { limit: number; offset: number }) {
  const db = replica.lagTolerant;
  const list = await rows<{
    id: string;
    message: string;
    stack: string | null;
    url: string | null;
    user_agent: string | null;
    app_version: string | null;
    ip_hash: string | null;
    created_at: Date;
  }>(
    db,
    sql`SELECT id::text AS id, message, stack, url, user_agent, app_version, ip_hash, created_at FROM issue_reports
        ORDER BY seq DESC LIMIT ${opts.limit + 1} OFFSET ${opts.offset}`,
  );
  return page(
    list.map((r) => ({
      id: r.id,
      message: r.message,
      stack: r.stack,
      url: r.url,
      userAgent: r.user_agent,
      appVersion: r.app_version,
      reporter: r.ip_hash,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    opts.limit,
    opts.offset,
  );
}
