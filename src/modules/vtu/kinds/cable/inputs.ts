import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput } from '../../../../kernel/inputs.js';
import { lower, planIdInput } from '../common-inputs.js';

/** Cable providers sold (also the providers of saved smartcards). */
export const CABLE_PROVIDERS = ['dstv', 'gotv', 'startimes', 'showmax'] as const;
export const cableInput = lower('identifier', CABLE_PROVIDERS);
export const iucInput = z
  .string({ error: 'iuc is required' })
  .trim()
  .regex(/^\d{10,12}$/, 'iuc must be the 10-12 digit smartcard (IUC) number');

export const subscribeCableInput = z.object({
  identifier: cableInput,
  iuc: iucInput,
  plan_id: planIdInput,
  amount: nairaAmount({ max: 200_000 }),
  phone: phoneInput,
  pin: pinInput,
});

export type CableInput = Omit<z.infer<typeof subscribeCableInput>, 'pin'>;
