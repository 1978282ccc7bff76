import { isIP } from 'node:net';
import { z } from 'zod';
import { FAULT_POINTS } from './lib/faults.js';
import { whatsappEnv } from './config-whatsapp.js';
import { alertsEnv } from './config-alerts.js';

/** The environment variables the service reads, as a schema: defaults, types and the messages of bad values. */
const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', ''])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');

const csv = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * TRUST_PROXY: whose X-Forwarded-For entries are believed. Off (`false`, `0`, empty), a hop count (`1`: the one proxy
 * in front appends the client's address, the right-most entry is taken), or the proxies' addresses and CIDRs
 * (`10.0.0.0/8,192.168.0.1`: the right-most entry not from one of them). `true` believes every entry, the left-most
 * one included, which any client writes itself; it is kept as `true` so config.ts can refuse it by name.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): boolean | number | string[] => {
    const v = raw.trim().toLowerCase();
    if (['', 'false', '0', 'no'].includes(v)) return false;
    if (['true', 'yes'].includes(v)) return true;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 20) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count must be between 1 and 20' });
      return z.NEVER;
    }
    const list = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const bad = list.filter((entry) => {
      const [address, prefix, extra] = entry.split('/');
      const kind = isIP(address);
      if (!kind || extra !== undefined) return true;
      return prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128));
    });
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `expected false, a hop count (1) or proxy addresses/CIDRs (10.0.0.0/8,192.168.0.1); not an address: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return list;
  });

const vtuEnv = {
  VTU_PROVIDER_A_URL: z.string().url().optional(),
  VTU_PROVIDER_A_KEY: z.string().optional(),
  VTU_PROVIDER_B_URL: z.string().url().optional(),
  VTU_PROVIDER_B_KEY: z.string().optional(),
  VTU_PROVIDER_C_URL: z.string().url().optional(),
  VTU_PROVIDER_C_KEY: z.string().optional(),
  VTU_PROVIDER_C_SECRET: z.string().optional(),
  VTU_PROVIDER_D_URL: z.string().url().optional(),
  VTU_PROVIDER_D_KEY: z.string().optional(),
  // The name of the business behind each letter, as the console shows it (routing, floats).
  VTU_PROVIDER_A_NAME: z.string().trim().min(1).max(60).optional(),
  VTU_PROVIDER_B_NAME: z.string().trim().min(1).max(60).optional(),
  VTU_PROVIDER_C_NAME: z.string().trim().min(1).max(60).optional(),
  VTU_PROVIDER_D_NAME: z.string().trim().min(1).max(60).optional(),
  VTU_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  VTU_ROUTING: z
    .string()
    .optional()
    .refine((s) => {
      if (!s) return true;
      try {
        const v = JSON.parse(s);
        return Object.values(v).every(
          (l) => Array.isArray(l) && l.length > 0 && l.every((p) => ['a', 'b', 'c', 'd'].includes(p as string)),
        );
      } catch {
        return false;
      }
    }, 'VTU_ROUTING must be JSON like {"data":["a","b"],"airtime":["c"]} with providers a-d'),
  VTU_RECONCILE_EVERY_MS: z.coerce.number().int().min(1000).optional(),
  // A processing purchase this old is waiting work for an operator (the dashboard's tile, the stuck list); issue 44.
  VTU_STUCK_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(10 * 60_000),
  VTU_NOT_FOUND_GRACE_MS: z.coerce.number().int().min(0).default(120_000),
  VTU_FLOAT_TOPUP: z.coerce.number().int().min(1000).default(500_000),
  VTU_SANDBOX_HOLD_MS: z.coerce.number().int().min(0).max(120_000).optional(),
  VTU_SANDBOX_SLOW_MS: z.coerce.number().int().min(0).max(120_000).optional(),
  // Airtime-to-cash (issue 32): percent of the airtime received credited per network, caps in naira, the window to send.
  AIRTIME_CASH_RATES: z
    .string()
    .optional()
    .refine((s) => {
      if (!s) return true;
      try {
        const v = JSON.parse(s);
        return (
          typeof v === 'object' &&
          v !== null &&
          Object.entries(v).every(([k, r]) => ['mtn', 'airtel', 'glo', '9mobile'].includes(k) && typeof r === 'number' && r > 0 && r <= 100)
        );
      } catch {
        return false;
      }
    }, 'AIRTIME_CASH_RATES must be JSON like {"mtn":80,"airtel":78} (percent, above 0 and at most 100) for mtn, airtel, glo, 9mobile'),
  AIRTIME_CASH_MIN: z.coerce.number().int().min(1).default(100),
  AIRTIME_CASH_MAX: z.coerce.number().int().min(1).default(20_000),
  AIRTIME_CASH_CUSTOMER_DAILY_CAP: z.coerce.number().int().min(1).default(50_000),
  AIRTIME_CASH_NUMBER_DAILY_CAP: z.coerce.number().int().min(1).default(20_000),
  AIRTIME_CASH_EXPIRES_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
};

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  REDIS_URL: z.string().optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'REDIS_KEY_PREFIX: letters, digits and _ . : - only (at most 64)')
    .default('vtu-rl:'),
  PUBLIC_URL: z.string().url().optional(),
  SANDBOX: bool.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** pino's JSON lines, or one line of text each (the sandbox only: `npm start` sets pretty); production is always JSON. */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  ADMIN_EMAILS: csv,
  AUTH_PRIVATE_KEY: z.string().optional(),
  RECEIPT_SIGNING_KEY: z.string().optional(),
  AUTH_ISSUER: z.string().default('vtu-wallet-service'),
  AUTH_AUDIENCE: z.string().default('vtu-wallet-api'),
  AUTH_JWKS_URL: z.string().url().optional(),
  AUTH_EXTERNAL_ISSUER: z.string().optional(),
  AUTH_EXTERNAL_ADMIN: z.enum(['true', 'false']).default('false'),
  AUTH_EXTERNAL_AUDIENCE: z.string().optional(),
  AUTH_EXTERNAL_ALGORITHMS: csv.transform((a) => (a.length ? a.map((x) => x.toUpperCase()) : ['RS256', 'ES256', 'EDDSA'])),
  PIN_PEPPER: z.string().optional(),
  DATA_ENCRYPTION_KEY: z.string().optional(),
  FILE_SIGNING_SECRET: z.string().optional(),
  PROCESSOR_SECRET_KEY: z.string().optional(),
  PROCESSOR_BASE_URL: z.string().url().optional(),
  DEFAULT_PROCESSOR: z.string().default('sandbox'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('VTU Wallet <no-reply@localhost>'),
  SMS_PROVIDER: z.enum(['termii', 'africastalking']).optional(),
  SMS_BASE_URL: z.string().url().optional(),
  SMS_API_KEY: z.string().optional(),
  SMS_USERNAME: z.string().optional(),
  SMS_SENDER_ID: z
    .string()
    .regex(/^[A-Za-z0-9 ]{3,11}$/, 'SMS_SENDER_ID must be 3-11 letters, digits or spaces (the registered alphanumeric sender ID)')
    .default('VTUWallet'),
  SMS_CHANNEL: z.enum(['dnd', 'generic']).default('dnd'),
  SMS_WEBHOOK_SECRET: z.string().optional(),
  /** The USSD gateway's addresses and CIDRs (issue 46); unset: any caller in the sandbox, none elsewhere. */
  USSD_ALLOWED_IPS: z.string().optional(),
  USSD_REPLY_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  USSD_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(30),
  ...vtuEnv,
  ...whatsappEnv,
  ...alertsEnv,
  TOTP_ISSUER: z.string().min(1).max(64).default('VTU Wallet'),
  /** Operators need a confirmed second factor (TOTP or passkey): required by default outside the sandbox. */
  OPERATOR_2FA: z.enum(['required', 'optional'], { error: 'OPERATOR_2FA must be required or optional' }).optional(),
  /** An operator's session ends after this many minutes without a person's request (operator-idle.ts). */
  OPERATOR_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1, 'OPERATOR_IDLE_MINUTES must be 1-1440')
    .max(24 * 60, 'OPERATOR_IDLE_MINUTES must be 1-1440')
    .default(15),
  /** WebAuthn relying party (operator passkeys): a host name, default PUBLIC_URL's. */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(
      /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
      'WEBAUTHN_RP_ID must be a host name like example.com',
    )
    .optional(),
  /** The origin passkey ceremonies run on (scheme, host, port), default PUBLIC_URL's. */
  WEBAUTHN_ORIGIN: z.string().url().optional(),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().optional(),
  PUSH_ALLOWED_HOSTS: z.string().optional(),
  METRICS_TOKEN: z.string().optional(),
  WEB_DIR: z.string().default('dist/web'),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_DIR: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  IDENTITY_BASE_URL: z.string().url().optional(),
  IDENTITY_API_KEY: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(262144),
  CORS_ORIGINS: csv,
  TRUST_PROXY: trustProxy,
  /** Origins besides PUBLIC_URL's that startProcessorTopup may send the payer back to (exact origins, comma-separated). */
  TOPUP_CALLBACK_ORIGINS: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const origins: string[] = [];
      for (const item of s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        const url = URL.canParse(item) ? new URL(item) : null;
        const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
        if (!url || !bare || !/^https?:$/.test(url.protocol)) {
          ctx.addIssue({
            code: 'custom',
            message: `expected origins like https://app.example.com (scheme, host, optional port; no path): ${item}`,
          });
          return z.NEVER;
        }
        origins.push(url.origin);
      }
      return origins;
    }),
  JOBS_ENABLED: bool.default(true),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  JOBS_BACKGROUND_LANES: z.coerce.number().int().min(1).max(16).default(1),
  JOBS_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(72),
  WEBHOOK_BACKLOG_MAX_AGE_MS: z.coerce.number().int().min(50).max(60_000).default(150),
  WEBHOOK_BACKLOG_MAX_PENDING: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  WEBHOOK_CREDIT_BATCH: z.coerce.number().int().min(1).max(1000).default(32),
  LEDGER_BATCH_MAX: z.coerce.number().int().min(1).max(256).default(32),
  LEDGER_BATCH_WAIT_MS: z.coerce.number().min(0).max(50).default(0),
  REQUEST_BATCH_MAX: z.coerce.number().int().min(1).max(256).default(32),
  DATABASE_LISTEN_URL: z.string().url().optional(),
  DATABASE_READ_URL: z.string().url().optional(),
  DATABASE_READ_MAX_LAG_SECONDS: z.coerce.number().positive().max(3600).default(5),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  API_KEY_BRAND: z
    .string()
    .regex(/^[a-z][a-z0-9]{1,15}$/, 'API_KEY_BRAND must be 2-16 lower-case letters and digits, starting with a letter')
    .default('vtu'),
  EPIN_PROVIDER_URL: z.string().url().optional(),
  EPIN_PROVIDER_KEY: z.string().min(8, 'EPIN_PROVIDER_KEY must be at least 8 characters').optional(),
  FAULT_POINT: z.enum(FAULT_POINTS).optional(),
  // Issue 43: the fee on a withdrawal to a bank account, naira (kobo precision), shown before the customer confirms.
  WITHDRAWAL_FEE: z.coerce
    .number()
    .min(0)
    .max(10_000)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'WITHDRAWAL_FEE must have at most 2 decimals')
    .default(50),
  // Issue 43: a withdrawal still pending with the processor this long is listed for an operator (the console's waiting work).
  WITHDRAWAL_STUCK_AFTER_MINUTES: z.coerce.number().int().min(5).max(10_080).default(60),
  TIER_LIMITS: z
    .string()
    .optional()
    .refine((s) => {
      if (!s) return true;
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    }, 'TIER_LIMITS must be JSON like {"1":{"dailyOutflow":50000,"balanceCap":300000}}'),
});

export type Env = z.input<typeof envSchema>;

/** The console's names of the providers (VTU_PROVIDER_<A-D>_NAME), by default their protocols' (providers/vtu). */
export const providerNamesOf = (e: z.infer<typeof envSchema>) => ({
  a: e.VTU_PROVIDER_A_NAME ?? 'SME data A',
  b: e.VTU_PROVIDER_B_NAME ?? 'SME data B',
  c: e.VTU_PROVIDER_C_NAME ?? 'VTpass',
  d: e.VTU_PROVIDER_D_NAME ?? 'Order API',
});
