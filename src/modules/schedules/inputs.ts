import { z } from 'zod';
import { nairaAmount } from '../../kernel/money.js';

/**
 * upsertSchedule's amount and time, shared with the app's schedule form (web/src/api/schemas.ts): this file imports
 * only zod and the kernel. (The phone is the kernel's phoneInput.)
 */
export const scheduleAmountInput = nairaAmount({ max: 100_000 });

export const scheduleTimeInput = z
  .string({ error: 'time is required' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time must be HH:MM in 24-hour Lagos time, e.g. 07:30');
