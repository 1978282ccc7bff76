import { z } from 'zod';
import { naira } from '../../kernel/money.js';

/** An approval request as operators see it (issue 30, four-eyes). `status` expired: pending past its 24 hours. */
export const approvalOutput = z
  .object({
    id: z.string(),
    action: z.enum(['wallet_adjustment', 'vtu_resolution', 'settlement_correction', 'threshold_change', 'price_setting']),
    status: z.enum(['pending', 'approved', 'rejected', 'expired']),
    makerId: z.string(),
    reason: z.string(),
    subjectType: z.string(),
    subjectId: z.string(),
    amount: naira,
    details: z.record(z.string(), z.union([z.string(), z.number()])),
    createdAt: z.string(),
    expiresAt: z.string(),
    checkerId: z.string().nullable(),
    decisionReason: z.string().nullable(),
    decidedAt: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
    makerEmail: z.string().nullable().optional().meta({ description: 'adminListApprovals: who asked (issue 44)' }),
    customerId: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'adminListApprovals: the customer whose money it moves; none for a threshold change' }),
    customerEmail: z.string().nullable().optional(),
    reference: z.string().nullable().optional().meta({
      description:
        "issue 44: what it is about by its reference: a resolution's purchase (vtu_…), a settlement correction's settled top-up (top_…, or a dedicated account transfer's processor reference); none for other actions",
    }),
  })
  .meta({ id: 'ApprovalRequest' });

/** What a maker's money operation answers: applied at once (below its threshold), or waiting for a second operator. */
export const submissionFields = {
  status: z.enum(['applied', 'pending']),
  approval: approvalOutput.nullable(),
};

/** adminListApprovals' orders, each a fixed ORDER BY in the service (the input's text never reaches the statement). */
export const APPROVAL_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type ApprovalSort = (typeof APPROVAL_SORTS)[number];
