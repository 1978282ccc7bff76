import { z } from 'zod';
import { nairaAmount } from '../../../../kernel/money.js';
import { pinInput } from '../../../../kernel/inputs.js';

/** Social services' operation inputs (zod and the kernel only: the app's social screen imports them). */
export const SOCIAL_PLATFORMS = ['instagram', 'tiktok', 'x', 'youtube', 'facebook'] as const;
export const platformInput = z
  .string({ error: 'platform must be a text' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(SOCIAL_PLATFORMS, { error: `platform must be one of ${SOCIAL_PLATFORMS.join(', ')}` }));

export const socialServiceInput = z
  .string({ error: 'service_id is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,60}$/, 'service_id must be a service_id from listSocialServices');

/** A public https link to the profile or post (the order's recipient). */
export const socialLinkInput = z
  .string({ error: 'link is required' })
  .trim()
  .max(300, 'link must be at most 300 characters')
  .regex(/^https:\/\/[^\s/]+\.[^\s/]+\/\S+$/, 'link must be an https link to the profile or post');

export const socialQuantityInput = z
  .number({ error: 'quantity must be a number' })
  .int('quantity must be a whole number')
  .min(1, 'quantity must be at least 1')
  .max(1_000_000, 'quantity must be at most 1,000,000');

/** The amount is the price of the quantity at the service's retail rate (PRICE_CHANGED otherwise). */
export const orderSocialInput = z.object({
  service_id: socialServiceInput,
  link: socialLinkInput,
  quantity: socialQuantityInput,
  amount: nairaAmount({ max: 500_000 }),
  pin: pinInput,
});

export type SocialInput = Omit<z.infer<typeof orderSocialInput>, 'pin'>;
