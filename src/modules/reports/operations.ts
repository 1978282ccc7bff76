import { z } from 'zod';
import { naira } from '../../kernel/money.js';
import { operationsOf } from '../../platform/operation.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { uuidInput } from '../../kernel/inputs.js';
import { reportDescriptionInput, reportReferenceInput } from './inputs.js';
import { REPORT_CATEGORIES } from './service.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['reports']);

const categoryInput = z.enum(REPORT_CATEGORIES, { error: `category must be one of ${REPORT_CATEGORIES.join(', ')}` });
const statusInput = z.enum(['open', 'resolved'], { error: 'status must be open or resolved' });

const reportOutput = z
  .object({
    id: z.string(),
    reference: z.string(),
    transactionType: z.string(),
    amount: naira.nullable(),
    category: categoryInput,
    description: z.string(),
    status: statusInput,
    resolutionNote: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'TransactionReport' });

export const reportOperations = [
  defineOperation({
    name: 'createTransactionReport',
    suffix: 'BearerReports',
    method: 'POST',
    purpose: 'report a failed or disputed transaction of the caller',
    rateLimit: 'strict',
    input: z.object({
      reference: reportReferenceInput,
      category: categoryInput,
      description: reportDescriptionInput,
    }),
    output: z.object({ report: reportOutput }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => ({ report: await ctx.api.reports.create(ctx.user.id, input) }),
  }),
  defineOperation({
    name: 'listMyReports',
    suffix: 'BearerReports',
    method: 'GET',
    purpose: "caller's issue reports, newest first",
    input: z.object({ status: statusInput.optional(), ...pageInput }),
    output: pageOutput(reportOutput),
    handler: async (input, ctx) => ctx.api.reports.listMine(ctx.user.id, input),
  }),
  defineOperation({
    name: 'adminListTransactionReports',
    suffix: 'BearerAdmin',
    roles: ['finance', 'support'],
    method: 'GET',
    purpose: 'transaction reports, optionally by status or user',
    input: z.object({ status: statusInput.optional(), userId: uuidInput('userId').optional(), ...pageInput }),
    output: pageOutput(
      reportOutput.extend({
        userId: z.string(),
        /** The support thread about the report's reference (its customer's newest naming it), or null (issue 44). */
        thread: z.object({ id: z.string(), status: z.enum(['open', 'closed']) }).nullable(),
      }),
    ),
    handler: async (input, ctx) => ctx.api.reports.adminList(ctx.user.id, input),
  }),
  defineOperation({
    name: 'adminResolveTransactionReport',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'POST',
    stepUpExempt: "closes a customer's report with a note; it moves no money and changes no authority",
    purpose:
      "resolve a report with a note (the user is notified); the customer's open support threads naming its reference close with it (closedThreadIds)",
    input: z.object({
      id: uuidInput('id'),
      note: z
        .string({ error: 'note is required' })
        .trim()
        .min(3, 'note must be at least 3 characters')
        .max(1000, 'note must be at most 1000 characters'),
    }),
    output: z.object({ report: reportOutput.extend({ userId: z.string() }), closedThreadIds: z.array(z.string()) }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      const done = await ctx.api.reports.adminResolve(ctx.user.id, input);
      // One action, one audit row naming the report and each thread it closed.
      ctx.audit.target('transaction_report', done.report.id);
      for (const id of done.closedThreadIds) ctx.audit.target('support_thread', id);
      return done;
    },
  }),
  defineOperation({
    name: 'adminListIssueReports',
    suffix: 'BearerAdmin',
    roles: ['support'],
    method: 'GET',
    purpose: 'client issue reports sent to POST /api/public/report-issue, newest first',
    input: z.object({ ...pageInput }),
    output: pageOutput(
      z.object({
        id: z.string(),
        message: z.string(),
        stack: z.string().nullable(),
        url: z.string().nullable(),
        userAgent: z.string().nullable(),
        appVersion: z.string().nullable(),
        reporter: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
    handler: async (input, ctx) => ctx.api.reports.adminListIssues(input),
  }),
];
