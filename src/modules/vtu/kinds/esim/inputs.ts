import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { phoneInput, pinInput, uuidInput } from '../../../../kernel/inputs.js';

/** Travel eSIMs' operation inputs (zod and the kernel only: the app's eSIM screen imports them). */
export const destinationInput = z
  .string({ error: 'destination is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,30}$/, 'destination must be an id from listEsimDestinations');

export const esimPlanInput = z
  .string({ error: 'plan_id is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,60}$/, 'plan_id must be a plan_id from listEsimPlans');

/**
 * The amount is the plan's retail price the buyer confirmed (PRICE_CHANGED otherwise). The destination is optional
 * (the plan names its own); given, it must be the plan's: "buy again" states it so the app pre-fills both.
 */
export const buyEsimInput = z.object({
  plan_id: esimPlanInput,
  destination: destinationInput
    .optional()
    .meta({ description: "the plan's destination as chosen (listEsimDestinations): refused when the plan is not for it" }),
  phone: phoneInput.meta({ description: "the buyer's phone: receipts, and the provider's contact for the eSIM" }),
  amount: nairaAmount({ max: 500_000 }),
  pin: pinInput,
});

/** esim_id: the transaction that issued the eSIM (one of the caller's; NOT_FOUND otherwise). */
export const topUpEsimInput = z.object({
  esim_id: uuidInput('esim_id'),
  plan_id: esimPlanInput,
  amount: nairaAmount({ max: 500_000 }),
  pin: pinInput,
});

export type BuyEsimInput = Omit<z.infer<typeof buyEsimInput>, 'pin'>;
export type TopUpEsimInput = Omit<z.infer<typeof topUpEsimInput>, 'pin'>;
/**
 * What the kind's `prepare` takes: a purchase, or (from topUpEsim, after the ownership check) a top-up of the
 * caller's eSIM with its ICCID and destination.
 */
export type EsimInput = BuyEsimInput & { topup?: { esimId: string; iccid: string; destination: string } };
