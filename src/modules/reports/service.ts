import type { ReportsDeps } from './deps.js';
import { adminListIssues, recordIssue, type IssueReportInput } from './issues.js';
import type { ReportCategory } from './report-rows.js';
import { adminList, adminResolve } from './report-resolution.js';
import { create, listMine } from './transaction-reports.js';

export { REPORT_CATEGORIES, reportView, type ReportCategory } from './report-rows.js';
export type { IssueReportInput } from './issues.js';

export type ReportsService = ReturnType<typeof createReportsService>;

/** Customers' reports of a transaction, operators' resolutions, and public issue reports. */
export function createReportsService(deps: ReportsDeps) {
  return {
    create: (userId: string, input: { reference: string; category: ReportCategory; description: string }) => create(deps, userId, input),
    listMine: (userId: string, opts: { status?: string; limit: number; offset: number }) => listMine(deps, userId, opts),
    adminList: (actorId: string, opts: { status?: string; userId?: string; limit: number; offset: number }) =>
      adminList(deps, actorId, opts),
    adminResolve: (actorId: string, input: { id: string; note: string }) => adminResolve(deps, actorId, input),
    recordIssue: (input: IssueReportInput, ip: string) => recordIssue(deps, input, ip),
    adminListIssues: (opts: { limit: number; offset: number }) => adminListIssues(deps, opts),
  };
}
