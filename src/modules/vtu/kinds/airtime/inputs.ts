import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput } from '../../../../kernel/inputs.js';
import { networkInput, portedInput } from '../common-inputs.js';

/** The amount a buyer chooses, naira. */
export const AIRTIME_AMOUNT = [50, 50_000] as const;

export const buyAirtimeInput = z.object({
  network: networkInput,
  phone: phoneInput,
  amount: nairaAmount({ min: AIRTIME_AMOUNT[0], max: AIRTIME_AMOUNT[1] }),
  pin: pinInput,
  ported: portedInput,
});

export type AirtimeInput = Omit<z.infer<typeof buyAirtimeInput>, 'pin'>;
