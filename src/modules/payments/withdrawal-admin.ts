import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rows } from '../../db/client.js';
import { page } from '../../kernel/paging.js';
import type { WithdrawalDeps } from './withdraw.js';
import { requeryWithdrawal } from './withdrawal-jobs.js';
import { WITHDRAWAL_COLUMNS, withdrawalOutput, withdrawalView, type WithdrawalRow } from './withdrawal-model.js';

/**
 * The console's withdrawals (issue 43): the list an operator filters (stuck: still pending with the processor
 * `stuckAfterMs` after the request, oldest first, on withdrawals_pending_idx) and the requery of one. A requery moves
 * money only as the processor's answer says (withdrawal-jobs.ts), so it asks no second operator.
 */
export const adminWithdrawalOutput = withdrawalOutput
  .extend({
    userId: z.string(),
    processor: z.string(),
    transferCode: z.string().nullable(),
    polls: z.number().meta({ description: 'how many times the processor was asked about the transfer' }),
  })
  .meta({ id: 'AdminWithdrawal' });

export interface AdminWithdrawalSearch {
  status?: 'pending' | 'success' | 'failed' | 'reversed';
  stuck?: boolean;
  reference?: string;
  userId?: string;
  limit: number;
  offset: number;
}

const adminView = (r: WithdrawalRow) => ({
  ...withdrawalView(r),
  userId: r.user_id,
  processor: r.processor,
  transferCode: r.transfer_code,
  polls: r.polls,
});

export async function adminListWithdrawals(deps: WithdrawalDeps, input: AdminWithdrawalSearch) {
  const stuckBefore = new Date(deps.clock.now().getTime() - deps.stuckAfterMs);
  const status = input.stuck ? 'pending' : (input.status ?? null);
  const found = await rows<WithdrawalRow>(
    deps.db,
    sql`SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals
        WHERE (${status}::text IS NULL OR status = ${status})
          AND (${input.stuck ?? false} = false OR created_at <= ${stuckBefore})
          AND (${input.reference ?? null}::text IS NULL OR reference = ${input.reference ?? null})
          AND (${input.userId ?? null}::uuid IS NULL OR user_id = ${input.userId ?? null})
        ORDER BY ${input.stuck ? sql`created_at ASC, id` : sql`created_at DESC, id`}
        LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
  );
  return { ...page(found.map(adminView), input.limit, input.offset), stuckAfterSeconds: deps.stuckAfterMs / 1000 };
}

export async function adminRequeryWithdrawal(deps: WithdrawalDeps, reference: string) {
  const { row, processorStatus } = await requeryWithdrawal(deps, reference);
  return { withdrawal: adminView(row), processorStatus };
}
