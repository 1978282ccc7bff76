import { z } from 'zod';

/**
 * The WhatsApp assistant's settings (issue 46): the Cloud API's app secret (webhook signatures), the verify token
 * (the webhook's subscription handshake), the business number's id and access token for sending, the Graph API's
 * address, the business number customers write to, requests per number a minute and the PIN link's lifetime.
 */
export const whatsappEnv = {
  WHATSAPP_APP_SECRET: z.string().min(8, 'WHATSAPP_APP_SECRET must be at least 8 characters').optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(4, 'WHATSAPP_VERIFY_TOKEN must be at least 4 characters').optional(),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'WHATSAPP_PHONE_NUMBER_ID is the Cloud API phone number id')
    .optional(),
  WHATSAPP_TOKEN: z.string().optional(),
  WHATSAPP_API_URL: z.string().url().optional(),
  WHATSAPP_BUSINESS_NUMBER: z
    .string()
    .regex(/^\+234\d{10}$/, 'WHATSAPP_BUSINESS_NUMBER is the business number in +234 form')
    .optional(),
  WHATSAPP_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(20),
};

export interface WhatsappConfig {
  /** Null: not configured (outside the sandbox without WHATSAPP_APP_SECRET every webhook post is refused). */
  appSecret: string | null;
  verifyToken: string | null;
  phoneNumberId: string;
  token: string;
  apiUrl: string;
  businessNumber: string;
  ratePerMinute: number;
}

type WhatsappEnv = z.infer<z.ZodObject<typeof whatsappEnv>>;

/** The sandbox's defaults talk to the built-in Cloud API simulator (src/sandbox/whatsapp-cloud.ts). */
export function whatsappConfig(e: WhatsappEnv, sandbox: boolean, publicUrl: string): WhatsappConfig {
  return {
    appSecret: e.WHATSAPP_APP_SECRET ?? (sandbox ? 'sandbox-whatsapp-secret' : null),
    verifyToken: e.WHATSAPP_VERIFY_TOKEN ?? (sandbox ? 'sandbox-verify' : null),
    phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID ?? 'sandbox-phone-id',
    token: e.WHATSAPP_TOKEN ?? (sandbox ? 'sandbox-whatsapp-token' : ''),
    apiUrl: (e.WHATSAPP_API_URL ?? (sandbox ? `${publicUrl}/api/sandbox/whatsapp` : 'https://graph.facebook.com/v21.0')).replace(/\/$/, ''),
    businessNumber: e.WHATSAPP_BUSINESS_NUMBER ?? '+2348000000046',
    ratePerMinute: e.WHATSAPP_RATE_PER_MINUTE,
  };
}
