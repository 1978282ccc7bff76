import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { nairaAmount, toKobo } from '../../kernel/money.js';
import { pageInput, pageOutput } from '../../kernel/paging.js';
import { APPROVAL_SORTS, approvalOutput } from './inputs.js';

/** What this module's handlers use (ctx.api). */
const defineOperation = operationsOf(['approvals']);

const idInput = z
  .string({ error: 'id is required' })
  .trim()
  .regex(/^apr_[0-9A-Za-z]{26}$/, 'id must be an approval request id (apr_...)');
const threshold = (name: string) =>
  nairaAmount({ min: 0, max: 10_000_000 })
    .optional()
    .meta({ description: `${name}: amounts below it take effect at once; 0 = every one waits for a second operator` });

const settingsOutput = z.object({
  walletAdjustment: z.number(),
  vtuResolution: z.number(),
  settlementCorrection: z.number(),
  /** Raised thresholds waiting for their time (one admin: 24 hours after the change). */
  scheduled: z.array(
    z.object({ setting: z.enum(['walletAdjustment', 'vtuResolution', 'settlementCorrection']), value: z.number(), at: z.string() }),
  ),
});

/** Issue 30, four-eyes: the checkers' side. Finance (and admin) decide; both the maker and the checker pass step-up. */
export const approvalOperations = [
  defineOperation({
    name: 'adminListApprovals',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'GET',
    purpose: 'approval requests (four-eyes), newest first, oldest first or by amount; status pending, approved, rejected or expired',
    input: z.object({
      status: z
        .enum(['pending', 'approved', 'rejected', 'expired'], { error: 'status must be pending, approved, rejected or expired' })
        .optional(),
      sort: z.enum(APPROVAL_SORTS, { error: 'sort must be newest, oldest, amount_desc or amount_asc' }).default('newest'),
      ...pageInput,
    }),
    output: pageOutput(approvalOutput),
    handler: async (input, ctx) => ctx.api.approvals.list(input),
  }),
  defineOperation({
    name: 'adminGetApproval',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'GET',
    purpose: 'one approval request',
    input: z.object({ id: idInput }),
    output: z.object({ approval: approvalOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => ctx.api.approvals.get(input.id),
  }),
  defineOperation({
    name: 'adminApproveRequest',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    purpose: "approve another operator's pending request: its money action runs now, exactly once",
    input: z.object({
      id: idInput,
      reason: z.string().trim().min(3, 'reason must be at least 3 characters').max(500, 'reason must be at most 500 characters').optional(),
    }),
    output: z.object({ approval: approvalOutput }),
    gates: { stepUp: true },
    rateLimit: 'money',
    errors: ['NOT_FOUND', 'CONFLICT', 'INSUFFICIENT_FUNDS'],
    handler: async (input, ctx) => {
      ctx.audit.target('approval_request', input.id);
      const done = await ctx.api.approvals.approve(ctx.user.id, input.id, input.reason);
      ctx.audit.target(done.approval.subjectType, done.approval.subjectId);
      // The purchase or top-up by its reference too: the audit log is searched by it (issue 44).
      if (done.approval.reference) ctx.audit.target(done.approval.subjectType, done.approval.reference);
      ctx.audit.change({ status: 'pending' }, { status: done.approval.status, result: done.approval.result });
      return done;
    },
  }),
  defineOperation({
    name: 'adminRejectRequest',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'POST',
    purpose: "reject another operator's pending request with a reason; nothing moves",
    input: z.object({
      id: idInput,
      reason: z
        .string({ error: 'reason is required' })
        .trim()
        .min(3, 'reason must be at least 3 characters')
        .max(500, 'reason must be at most 500 characters'),
    }),
    output: z.object({ approval: approvalOutput }),
    gates: { stepUp: true },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async (input, ctx) => {
      ctx.audit.target('approval_request', input.id);
      const done = await ctx.api.approvals.reject(ctx.user.id, input.id, input.reason);
      ctx.audit.target(done.approval.subjectType, done.approval.subjectId);
      if (done.approval.reference) ctx.audit.target(done.approval.subjectType, done.approval.reference);
      ctx.audit.change({ status: 'pending' }, { status: done.approval.status });
      return done;
    },
  }),
  defineOperation({
    name: 'adminGetApprovalSettings',
    suffix: 'BearerAdmin',
    roles: ['finance'],
    method: 'GET',
    purpose: 'four-eyes thresholds per action (naira): amounts below take effect at once; raised ones waiting for their time',
    input: z.object({}),
    output: settingsOutput,
    handler: async (_input, ctx) => ctx.api.approvals.getSettings(),
  }),
  defineOperation({
    name: 'adminUpdateApprovalSettings',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    purpose:
      'change four-eyes thresholds per action (naira); omitted ones stay. A lower threshold applies at once; a higher one waits for a second admin (an approval request), or with one admin takes effect after 24 hours; every admin is e-mailed',
    input: z
      .object({
        walletAdjustment: threshold('walletAdjustment'),
        vtuResolution: threshold('vtuResolution'),
        settlementCorrection: threshold('settlementCorrection'),
        reason: z
          .string()
          .trim()
          .min(3, 'reason must be at least 3 characters')
          .max(500, 'reason must be at most 500 characters')
          .optional(),
      })
      .refine((v) => [v.walletAdjustment, v.vtuResolution, v.settlementCorrection].some((x) => x !== undefined), {
        message: 'name at least one threshold',
        path: ['walletAdjustment'],
      }),
    output: settingsOutput.extend({
      change: z.object({
        status: z.enum(['applied', 'pending', 'scheduled']),
        approvalId: z.string().nullable(),
        effectiveAt: z.string().nullable(),
      }),
    }),
    gates: { stepUp: true },
    announce: true,
    handler: async (input, ctx) => {
      const before = await ctx.api.approvals.getSettings();
      const kobo = (v: number | undefined) => (v === undefined ? undefined : toKobo(v));
      const after = await ctx.api.approvals.updateSettings(
        ctx.user.id,
        {
          walletAdjustment: kobo(input.walletAdjustment),
          vtuResolution: kobo(input.vtuResolution),
          settlementCorrection: kobo(input.settlementCorrection),
        },
        input.reason ?? 'Change of the four-eyes thresholds',
      );
      if (after.change.approvalId) ctx.audit.target('approval_request', after.change.approvalId);
      ctx.audit.change(before, after);
      return after;
    },
  }),
];
