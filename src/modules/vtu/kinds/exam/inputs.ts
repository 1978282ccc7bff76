import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput } from '../../../../kernel/inputs.js';

export const examInput = z
  .string({ error: 'exam is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,40}$/, 'exam must be a plan_id from listEducationPins');

export const buyEducationPinInput = z.object({
  exam: examInput,
  quantity: z
    .number({ error: 'quantity must be a number' })
    .int('quantity must be a whole number')
    .min(1, 'quantity must be at least 1')
    .max(10, 'quantity must be at most 10')
    .default(1),
  phone: phoneInput,
  amount: nairaAmount({ max: 500_000 }),
  profile_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,20}$/, 'profile_id must be 6-20 letters or digits')
    .optional(),
  pin: pinInput,
});

export type ExamInput = Omit<z.infer<typeof buyEducationPinInput>, 'pin'>;
