import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { purchaseCase } from './purchase-case.js';

const defineOperation = operationsOf(['db']);

/** Issue 44: report, purchase and thread linked on the purchase's page. */
export const caseOperations = [
  defineOperation({
    name: 'adminGetPurchaseCase',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: ['finance', 'support'],
    purpose:
      "a purchase's transaction reports (its customer's, of its reference) and the support threads naming its reference; resolving a report closes its threads and closing a thread resolves its reports",
    input: z.object({ reference: z.string().trim().min(3, 'reference must be at least 3 characters').max(200, 'reference is too long') }),
    output: z.object({
      userId: z.string().nullable(),
      reports: z.array(z.object({ id: z.string(), reference: z.string(), status: z.enum(['open', 'resolved']), createdAt: z.string() })),
      threads: z.array(z.object({ id: z.string(), status: z.enum(['open', 'closed']) })),
    }),
    handler: async (input, ctx) => purchaseCase(ctx.api.db, input.reference),
  }),
];
