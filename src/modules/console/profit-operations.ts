import { z } from 'zod';
import { naira } from '../../kernel/money.js';
import { operationsOf } from '../../platform/operation.js';
import { lagosDay } from './range.js';

const defineOperation = operationsOf(['operatorConsole']);

const sums = { count: z.number(), retail: naira, wholesale: naira, profit: naira };

/** Issue 45: the profit view (finance and admins). */
export const profitOperations = [
  defineOperation({
    name: 'adminProfit',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: ['finance'],
    purpose:
      'profit of successful VTU purchases and delivered recharge cards (service epin; retail minus wholesale) over a range of Lagos days (default today, at most 92), by day, service and price level, with totals by service, by level and overall; optionally one service or level',
    input: z.object({
      from: lagosDay.optional().meta({ description: 'first Lagos day included (YYYY-MM-DD); default today' }),
      to: lagosDay.optional().meta({ description: 'last Lagos day included (YYYY-MM-DD); default `from`' }),
      service: z.string().trim().toLowerCase().max(40, 'service is too long').optional(),
      level: z.string().trim().toLowerCase().max(40, 'level is too long').optional(),
    }),
    output: z.object({
      from: z.string(),
      to: z.string(),
      total: z.object(sums),
      byService: z.array(z.object({ service: z.string(), ...sums })),
      byLevel: z.array(z.object({ level: z.string(), levelName: z.string(), ...sums })),
      items: z.array(z.object({ day: z.string(), service: z.string(), level: z.string(), levelName: z.string(), ...sums })),
    }),
    handler: async (input, ctx) => ctx.api.operatorConsole.profit(input),
  }),
];
