import { z } from 'zod';

/**
 * submitSubscriptionOrder's account, shared with the app's order form (web/src/api/schemas.ts): this file imports only
 * zod and the kernel.
 */
export const subscriptionAccountInput = z
  .string({ error: 'account is required' })
  .trim()
  .min(3, 'account must be at least 3 characters')
  .max(200, 'account must be at most 200 characters (the e-mail, username or profile link to credit)');
