import { z } from 'zod';
import { phoneInput } from '../../kernel/inputs.js';

/**
 * The marketplace operations' text rule and createMarketplaceOrder's quantity and delivery, shared with the app's
 * order form (web/src/api/schemas.ts): this file imports only zod and the kernel.
 */
export const text = (name: string, min: number, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(min, `${name} must be at least ${min} characters`)
    .max(max, `${name} must be at most ${max} characters`);

export const MAX_ORDER_QUANTITY = 20;

export const orderQuantityInput = z
  .number({ error: 'quantity must be a number' })
  .int('quantity must be a whole number')
  .min(1, 'quantity must be at least 1')
  .max(MAX_ORDER_QUANTITY, `quantity must be at most ${MAX_ORDER_QUANTITY}`);

export const deliveryInput = z.object({
  fullName: text('delivery.fullName', 2, 100),
  phone: phoneInput,
  address: text('delivery.address', 5, 300),
  city: text('delivery.city', 2, 60),
  state: text('delivery.state', 2, 60),
  note: text('delivery.note', 1, 300).optional(),
});
