import { z } from 'zod';

/**
 * The recharge cards' inputs (issue 45), shared by the operations and the app's forms: zod only, no service code.
 */
export const EPIN_NETWORKS = ['mtn', 'airtel', 'glo', '9mobile'] as const;
export type EpinNetwork = (typeof EPIN_NETWORKS)[number];
/** The face values on sale, naira. */
export const EPIN_DENOMINATIONS = [100, 200, 500, 1000] as const;
export const EPIN_MAX_QUANTITY = 1000;

/** The code a customer dials to load a card, per network (printed on every card). */
export const LOAD_CODES: Record<EpinNetwork, string> = {
  mtn: '*555*PIN#',
  airtel: '*126*PIN#',
  glo: '*123*PIN#',
  '9mobile': '*222*PIN#',
};

export const epinNetworkInput = z
  .string({ error: 'network is required' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(EPIN_NETWORKS, { error: 'network must be one of mtn, airtel, glo, 9mobile' }));

export const denominationInput = z.coerce
  .number({ error: 'denomination must be a number' })
  .refine((n) => (EPIN_DENOMINATIONS as readonly number[]).includes(n), { message: 'denomination must be 100, 200, 500 or 1000' });

export const quantityInput = z.coerce
  .number({ error: 'quantity must be a number' })
  .int('quantity must be a whole number')
  .min(1, 'quantity must be at least 1')
  .max(EPIN_MAX_QUANTITY, `quantity must be at most ${EPIN_MAX_QUANTITY}`);

export const businessNameInput = z
  .string({ error: 'businessName must be text' })
  .trim()
  .min(2, 'businessName must be at least 2 characters')
  .max(40, 'businessName must be at most 40 characters')
  .regex(/^[^\p{C}<>]+$/u, 'businessName must be plain text');

export const batchIdInput = z
  .string({ error: 'id is required' })
  .trim()
  .regex(/^epb_[0-9A-Z]{26}$/, 'id must be a batch id (epb_...)');

export const buyEpinsFields = {
  network: epinNetworkInput,
  denomination: denominationInput,
  quantity: quantityInput,
  businessName: businessNameInput.optional(),
};

export const markSoldFields = {
  id: batchIdInput,
  serials: z
    .array(z.string().trim().min(1).max(40), { error: 'serials must be a list of card serials' })
    .min(1, 'name at least one card')
    .max(EPIN_MAX_QUANTITY, `at most ${EPIN_MAX_QUANTITY} cards at once`),
  sold: z.boolean({ error: 'sold must be true or false' }).default(true),
};
