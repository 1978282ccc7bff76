import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { pinInput } from '../../../../kernel/inputs.js';

export const customerIdInput = z
  .string({ error: 'customer_id is required' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,30}$/, 'customer_id must be 3-30 letters, digits, _ or -');
export const companyInput = z
  .string({ error: 'betting_company is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,30}$/, 'betting_company must be a company id from listBetCompanies');

/** The amount a buyer chooses, naira. */
export const BETTING_AMOUNT = [100, 500_000] as const;

export const fundBetInput = z.object({
  betting_company: companyInput,
  customer_id: customerIdInput,
  amount: nairaAmount({ min: BETTING_AMOUNT[0], max: BETTING_AMOUNT[1] }),
  pin: pinInput,
});

export type BettingInput = Omit<z.infer<typeof fundBetInput>, 'pin'>;
