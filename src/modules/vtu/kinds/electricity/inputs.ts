import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput } from '../../../../kernel/inputs.js';
import { lower } from '../common-inputs.js';

/** Distribution companies sold (also the companies of saved meters). */
export const DISCOS = [
  'ikeja',
  'eko',
  'kano',
  'portharcourt',
  'jos',
  'ibadan',
  'kaduna',
  'abuja',
  'enugu',
  'benin',
  'aba',
  'yola',
] as const;
export const discoInput = lower('plan', DISCOS);
export const meterTypeInput = lower('type', ['prepaid', 'postpaid']);
export const meterInput = z
  .string({ error: 'meter is required' })
  .trim()
  .regex(/^\d{11,13}$/, 'meter must be the 11-13 digit meter number');

/** The amount a buyer chooses, naira. */
export const ELECTRICITY_AMOUNT = [1000, 500_000] as const;

export const buyElectricityInput = z.object({
  plan: discoInput,
  meter: meterInput,
  type: meterTypeInput,
  amount: nairaAmount({ min: ELECTRICITY_AMOUNT[0], max: ELECTRICITY_AMOUNT[1] }),
  phone: phoneInput,
  pin: pinInput,
});

export type ElectricityInput = Omit<z.infer<typeof buyElectricityInput>, 'pin'>;
