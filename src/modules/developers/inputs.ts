import { z } from 'zod';
import { API_SCOPES } from '../../kernel/actor.js';
import { nairaAmount } from '../../kernel/money.js';

/** The API keys' inputs (issue 45), shared with the app's developer page. */
export { API_SCOPES };
export const KEY_MODES = ['test', 'live'] as const;
/** The events a webhook endpoint can take (issue 45). */
export const WEBHOOK_EVENTS = [
  'purchase.succeeded',
  'purchase.failed',
  'purchase.refunded',
  'wallet.credited',
  'epin.batch_ready',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Keys a customer may hold at once (revoked and expired ones not counted). */
export const MAX_KEYS = 10;
/** Longest overlap of a rolled key with its successor. */
export const MAX_OVERLAP_HOURS = 72;

export const keyNameInput = z.string().trim().min(1).max(60);
export const keyScopesInput = z
  .array(z.enum(API_SCOPES))
  .min(1)
  .max(API_SCOPES.length)
  .refine((s) => new Set(s).size === s.length, 'each scope once');
export const allowedIpsInput = z.array(z.union([z.ipv4(), z.ipv6()])).max(20);
export const dailyLimitInput = nairaAmount({ min: 1, max: 100_000_000 });
export const overlapHoursInput = z.coerce.number().int().min(0).max(MAX_OVERLAP_HOURS);

export const createApiKeyInput = z.object({
  name: keyNameInput,
  mode: z.enum(KEY_MODES),
  scopes: keyScopesInput,
  allowedIps: allowedIpsInput.optional(),
  dailyLimit: dailyLimitInput.optional(),
});
