import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput } from '../../../../kernel/inputs.js';
import { networkInput, planIdInput, portedInput } from '../common-inputs.js';

export const buyDataInput = z.object({
  network: networkInput,
  plan_id: planIdInput,
  phone: phoneInput,
  amount: nairaAmount({ max: 100_000 }),
  pin: pinInput,
  ported: portedInput,
});

export type DataInput = Omit<z.infer<typeof buyDataInput>, 'pin'>;
