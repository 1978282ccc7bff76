import path from 'node:path';
import { z } from 'zod';

import { type FaultPoint } from './lib/faults.js';
import { envSchema, providerNamesOf, type Env } from './config-env.js';
import { whatsappConfig, type WhatsappConfig } from './config-whatsapp.js';
import { alertsConfig, type AlertsConfig } from './config-alerts.js';
import { epinsConfig, storageConfig, withdrawalConfig } from './config-upstreams.js';
import { ed25519KeyProblem, productionProblems, SECRETS } from './config-production.js';

export type { Env };

/**
 * The sandbox's own operator address: an operator exists in every sandbox, so `npm run seed` (and a newcomer)
 * can approve KYC and run the operator operations without restarting with ADMIN_EMAILS. Never outside the sandbox.
 */
export const SANDBOX_OPERATOR_EMAIL = 'operator@demo.test';

/**
 * Every setting the service reads. Parsed once at start-up (docs/style.md rule 5); nothing else reads process.env.
 * The README's configuration table mirrors this list; the secrets' sandbox fallbacks are in config-production.ts.
 */
export interface Config {
  env: 'development' | 'production' | 'test';
  production: boolean;
  sandbox: boolean;
  /** Webhook endpoints may be plain http on loopback or private addresses: the sandbox's (test mode keeps its live world's). */
  webhooksPrivate: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  /** Name each parameterised statement so PostgreSQL parses and plans it once per connection. */
  databasePreparedStatements: boolean;
  redisUrl?: string;
  /** Prefix of every key this deployment writes in Redis: deployments sharing one Redis need different ones. */
  redisKeyPrefix: string;
  publicUrl: string;
  logLevel: string;
  /** LOG_FORMAT, honoured in the sandbox only: production and any other run log pino's JSON lines. */
  logFormat: 'json' | 'pretty';
  adminEmails: string[];
  auth: {
    privateKeyPem?: string;
    issuer: string;
    audience: string;
    jwksUrl?: string;
    externalIssuer?: string;
    /** Whether an external token of an ADMIN_EMAILS address carries the operator role (off by default). */
    externalAdmin: boolean;
    externalAudience?: string;
    externalAlgorithms: string[];
    accessTtlSeconds: number;
    refreshTtlSeconds: number;
  };
  secrets: {
    pinPepper: string;
    dataEncryptionKey: string;
    fileSigningSecret: string;
  };
  processor: { secretKey: string; baseUrl?: string; default: string };
  mail: { smtpUrl?: string; from: string };
  /**
   * SMS gateway. The sandbox uses Termii's simulator at PUBLIC_URL/sandbox/sms-gateway; outside the
   * sandbox without SMS_PROVIDER (development only) messages are captured in the database, never sent.
   */
  sms: {
    provider?: 'termii' | 'africastalking';
    baseUrl?: string;
    apiKey: string;
    username?: string;
    senderId: string;
    channel: 'dnd' | 'generic';
    webhookSecret?: string;
  };
  /**
   * The USSD menu (issue 46): the gateway's allowed addresses and CIDRs (null: any, the sandbox's default; empty: none),
   * how long a purchase may take before the session ends with "we will SMS the result", requests per number a minute.
   */
  ussd: { allowedIps: string[] | null; replyMs: number; ratePerMinute: number };
  /** The WhatsApp assistant (issue 46, config-whatsapp.ts). */
  whatsapp: WhatsappConfig;
  /** The operators' alerts on waiting work, floats and the pool (issue 44, config-alerts.ts). */
  alerts: AlertsConfig;
  /** VTU providers, routing and reconciliation (docs/design.md §7, §8). */
  vtu: {
    providers: Record<'a' | 'b' | 'c' | 'd', { url: string; key: string; secret?: string }>;
    /** VTU_PROVIDER_<A-D>_NAME: the business behind each letter, as the console names it (config-env.ts). */
    providerNames: Record<'a' | 'b' | 'c' | 'd', string>;
    timeoutMs: number;
    /**
     * VTU_ROUTING: providers in order per service kind it names. A kind it does not name is routed by the kind's own
     * default (src/modules/vtu/kinds/<kind>: data A then B; airtime, electricity, cable C; betting, exam D).
     * Airtime-to-cash (key airtime_cash, default C) is read from it too, and may name only providers with its adapter.
     */
    routing: Record<string, ('a' | 'b' | 'c' | 'd')[]>;
    reconcileEveryMs: number;
    stuckAfterMs: number;
    notFoundGraceMs: number;
    /** Kobo added to a provider float when it runs short. */
    floatTopup: bigint;
    sandboxHoldMs: number;
    sandboxSlowMs: number;
  };
  /**
   * Airtime-to-cash (issue 32, provider C): percent of the airtime received that is credited, per network; the naira
   * bounds of one request and the daily caps per customer and per sending number; the minutes a request waits for
   * the airtime.
   */
  airtimeCash: {
    ratePercent: Record<'mtn' | 'airtel' | 'glo' | '9mobile', number>;
    min: bigint;
    max: bigint;
    customerDailyCap: bigint;
    numberDailyCap: bigint;
    expiresMs: number;
  };
  /** Issuer name shown in authenticator apps (TOTP provisioning URI). */
  totpIssuer: string;
  /** Operators (issue 30): a second factor required for admin operations, and the idle end of their sessions. */
  operators: { twoFactor: 'required' | 'optional'; idleMinutes: number };
  /** WebAuthn relying party of operator passkeys: its ID (a host name) and the origin ceremonies run on. */
  webauthn: { rpId: string; rpName: string; origin: string };
  /** Private KYC uploads: local directory outside any served folder, or an S3-compatible bucket. */
  storage: {
    driver: 'local' | 's3';
    localDir: string;
    s3: { bucket?: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  };
  /** NIN look-up and bank name enquiry upstream (the sandbox simulator when config.sandbox). */
  identity: { baseUrl?: string; apiKey?: string };
  /** Web push (VAPID). Keys absent outside production: generated and kept under DATA_DIR/keys. */
  vapid: { publicKey?: string; privateKey?: string; subject: string };
  /** Push service host names (`push.example.com` or `*.example.com`) subscriptions may use; empty: any public host. */
  pushAllowedHosts: string[];
  /** Bearer token for /metrics; unset outside production leaves /metrics open. */
  metricsToken?: string;
  /** The built web app served at /; unset or missing build: not served. */
  webDir?: string;
  bodyLimit: number;
  corsOrigins: string[];
  /** Fastify's trustProxy: off, a hop count, or the proxies' addresses/CIDRs (never "trust every entry"). */
  trustProxy: false | number | string[];
  /** Origins startProcessorTopup's callbackUrl may have: PUBLIC_URL's, then TOPUP_CALLBACK_ORIGINS. */
  topupCallbackOrigins: string[];
  jobsEnabled: boolean;
  /** Jobs one worker process runs side by side (each holds a pool connection while it works). */
  jobsConcurrency: number;
  jobsBackgroundLanes: number; // batch lanes of background queues working at once (JOBS_BACKGROUND_LANES)
  /** Finished jobs are deleted this long after they finished; 0 keeps them. Dead letters are always kept. */
  jobsRetentionHours: number;
  /**
   * The processor webhook answers 429 (Retry-After) instead of storing a new event while the oldest due credit job
   * has waited longer than maxAgeMs or maxPending are due: credits are posted in time or not accepted yet.
   */
  webhookAdmission: { maxAgeMs: number; maxPending: number };
  /** Webhook credits one worker lane claims and posts in one transaction. */
  webhookCreditBatch: number;
  /** Postings alone gathered for at most waitMs (0: one event-loop turn) or max of them, made by one statement (1: off). */
  ledgerBatch: { max: number; waitMs: number };
  /** Idempotency-Key claims and answers of concurrent requests written together, at most this many (1: each alone). */
  requestBatchMax: number;
  /** LISTEN connections' URL when DATABASE_URL is a transaction-mode pooler. */
  databaseListenUrl?: string;
  /** A streaming replica for reads that tolerate lag (src/db/replica.ts); the primary's pool size applies. */
  databaseReadUrl?: string;
  /** The replica is used while it holds everything older than this; beyond it, reads go to the primary. */
  databaseReadMaxLagMs: number;
  rateLimitPerMinute: number;
  /** The first word of API keys (`<brand>_sk_live_...`, issue 45), so secret scanners can find a leaked one. */
  apiKeyBrand: string;
  /**
   * The e-PIN (recharge card) seller (issue 45, modules/epins): EPIN_PROVIDER_URL and EPIN_PROVIDER_KEY, the sandbox's
   * simulator by default in the sandbox; null outside it without both (e-PINs are then not on sale).
   */
  epins: { url: string; key: string } | null;
  /** Test-only crash hook (src/lib/faults.ts); refused in production. */
  faultPoint?: FaultPoint;
  tierLimitsJson?: string;
  /** The fee on a withdrawal to a bank account, in kobo (WITHDRAWAL_FEE, naira). */
  withdrawalFee: bigint;
  /** A withdrawal still pending this long is waiting work for an operator (WITHDRAWAL_STUCK_AFTER_MINUTES). */
  withdrawalStuckAfterMs: number;
  /** Ed25519 PKCS#8 PEM signing receipts; generated under dataDir outside production. */
  receiptSigningKeyPem?: string;
}

type ParsedEnv = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function loadConfig(raw: Record<string, string | undefined>, overrides: Partial<Config> = {}): Config {
  const e = parseEnv(raw);
  // The sandbox (simulators, /sandbox/mailbox with everyone's codes) only when asked for: SANDBOX=true
  // (npm start and npm run dev pass --sandbox), or NODE_ENV=test. A deployment that forgets NODE_ENV gets no sandbox.
  const sandbox = e.SANDBOX ?? e.NODE_ENV === 'test';
  if (e.NODE_ENV === 'production') {
    const problems = productionProblems(e, sandbox);
    if (problems.length) throw new ConfigError(`Refusing to start in production:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return { ...configOf(e, sandbox), alerts: alertsConfig(e), webhooksPrivate: sandbox, ...overrides };
}

/** The environment parsed and its settings checked against each other; a ConfigError names what is wrong. */
function parseEnv(raw: Record<string, string | undefined>): ParsedEnv {
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET)
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET is required when STORAGE_DRIVER=s3');
  if (e.AIRTIME_CASH_MIN > e.AIRTIME_CASH_MAX)
    throw new ConfigError(
      `Invalid configuration:\n  AIRTIME_CASH_MIN (${e.AIRTIME_CASH_MIN}) must not be above AIRTIME_CASH_MAX (${e.AIRTIME_CASH_MAX})`,
    );
  // A key that does not parse stops the start here, named, instead of as a stack trace from the token service.
  for (const key of ['AUTH_PRIVATE_KEY', 'RECEIPT_SIGNING_KEY'] as const) {
    const problem = ed25519KeyProblem(e[key]);
    if (problem) throw new ConfigError(`Invalid configuration:\n  ${key}: ${problem}`);
  }
  return e;
}

function configOf(e: ParsedEnv, sandbox: boolean): Omit<Config, 'webhooksPrivate' | 'alerts'> {
  const production = e.NODE_ENV === 'production';
  return {
    env: e.NODE_ENV,
    production,
    sandbox,
    port: e.PORT,
    // The sandbox listens on loopback only unless HOST says otherwise.
    host: e.HOST ?? (sandbox ? '127.0.0.1' : '0.0.0.0'),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    logFormat: sandbox ? e.LOG_FORMAT : 'json',
    adminEmails: sandbox && !e.ADMIN_EMAILS.includes(SANDBOX_OPERATOR_EMAIL) ? [...e.ADMIN_EMAILS, SANDBOX_OPERATOR_EMAIL] : e.ADMIN_EMAILS,
    auth: authConfig(e),
    secrets: {
      pinPepper: e.PIN_PEPPER ?? SECRETS.PIN_PEPPER.sandbox,
      dataEncryptionKey: e.DATA_ENCRYPTION_KEY ?? SECRETS.DATA_ENCRYPTION_KEY.sandbox,
      fileSigningSecret: e.FILE_SIGNING_SECRET ?? SECRETS.FILE_SIGNING_SECRET.sandbox,
    },
    processor: {
      secretKey: e.PROCESSOR_SECRET_KEY ?? SECRETS.PROCESSOR_SECRET_KEY.sandbox,
      baseUrl: e.PROCESSOR_BASE_URL,
      default: e.DEFAULT_PROCESSOR,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    sms: smsConfig(e, sandbox),
    ussd: {
      allowedIps:
        e.USSD_ALLOWED_IPS?.split(',')
          .map((a) => a.trim())
          .filter(Boolean) ?? (sandbox ? null : []),
      replyMs: e.USSD_REPLY_MS,
      ratePerMinute: e.USSD_RATE_PER_MINUTE,
    },
    whatsapp: whatsappConfig(e, sandbox, (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')),
    vtu: vtuConfig(e, (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')),
    airtimeCash: airtimeCashConfig(e),
    totpIssuer: e.TOTP_ISSUER,
    operators: { twoFactor: e.OPERATOR_2FA ?? (sandbox ? 'optional' : 'required'), idleMinutes: e.OPERATOR_IDLE_MINUTES },
    webauthn: webauthnConfig(e),
    storage: storageConfig(e),
    identity: { baseUrl: e.IDENTITY_BASE_URL, apiKey: e.IDENTITY_API_KEY },
    metricsToken: e.METRICS_TOKEN || undefined,
    webDir: e.WEB_DIR || undefined,
    pushAllowedHosts: (e.PUSH_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    vapid: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT ?? 'mailto:operator@example.com' },
    bodyLimit: e.BODY_LIMIT_BYTES,
    corsOrigins: e.CORS_ORIGINS,
    // Outside production `true` is read as the one proxy a development set-up has in front.
    trustProxy: e.TRUST_PROXY === true ? 1 : e.TRUST_PROXY,
    topupCallbackOrigins: [...new Set([new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin, ...e.TOPUP_CALLBACK_ORIGINS])],
    jobsEnabled: e.JOBS_ENABLED,
    jobsConcurrency: e.JOBS_CONCURRENCY,
    jobsBackgroundLanes: e.JOBS_BACKGROUND_LANES,
    jobsRetentionHours: e.JOBS_RETENTION_HOURS,
    webhookAdmission: { maxAgeMs: e.WEBHOOK_BACKLOG_MAX_AGE_MS, maxPending: e.WEBHOOK_BACKLOG_MAX_PENDING },
    webhookCreditBatch: e.WEBHOOK_CREDIT_BATCH,
    ledgerBatch: { max: e.LEDGER_BATCH_MAX, waitMs: e.LEDGER_BATCH_WAIT_MS },
    requestBatchMax: e.REQUEST_BATCH_MAX,
    databaseListenUrl: e.DATABASE_LISTEN_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    databaseReadMaxLagMs: e.DATABASE_READ_MAX_LAG_SECONDS * 1000,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    apiKeyBrand: e.API_KEY_BRAND,
    epins: epinsConfig(e, sandbox),
    faultPoint: e.FAULT_POINT,
    tierLimitsJson: e.TIER_LIMITS,
    ...withdrawalConfig(e),
    receiptSigningKeyPem: e.RECEIPT_SIGNING_KEY?.replace(/\\n/g, '\n'),
  };
}

function authConfig(e: ParsedEnv): Config['auth'] {
  return {
    privateKeyPem: e.AUTH_PRIVATE_KEY?.replace(/\\n/g, '\n'),
    issuer: e.AUTH_ISSUER,
    audience: e.AUTH_AUDIENCE,
    jwksUrl: e.AUTH_JWKS_URL,
    externalIssuer: e.AUTH_EXTERNAL_ISSUER,
    externalAdmin: e.AUTH_EXTERNAL_ADMIN === 'true',
    externalAudience: e.AUTH_EXTERNAL_AUDIENCE,
    externalAlgorithms: e.AUTH_EXTERNAL_ALGORITHMS.map((a) => (a === 'EDDSA' ? 'EdDSA' : a)),
    accessTtlSeconds: 15 * 60,
    refreshTtlSeconds: 30 * 24 * 3600,
  };
}

function smsConfig(e: ParsedEnv, sandbox: boolean): Config['sms'] {
  return {
    provider: e.SMS_PROVIDER ?? (sandbox ? 'termii' : undefined),
    baseUrl: e.SMS_BASE_URL,
    apiKey: e.SMS_API_KEY ?? SECRETS.SMS_API_KEY.sandbox,
    username: e.SMS_USERNAME ?? (sandbox ? 'sandbox' : undefined),
    senderId: e.SMS_SENDER_ID,
    channel: e.SMS_CHANNEL,
    webhookSecret: e.SMS_WEBHOOK_SECRET ?? (sandbox ? SECRETS.SMS_WEBHOOK_SECRET.sandbox : undefined),
  };
}

function airtimeCashConfig(e: ParsedEnv): Config['airtimeCash'] {
  return {
    ratePercent: { ...AIRTIME_CASH_DEFAULT_RATES, ...(e.AIRTIME_CASH_RATES ? JSON.parse(e.AIRTIME_CASH_RATES) : {}) },
    min: BigInt(e.AIRTIME_CASH_MIN) * 100n,
    max: BigInt(e.AIRTIME_CASH_MAX) * 100n,
    customerDailyCap: BigInt(e.AIRTIME_CASH_CUSTOMER_DAILY_CAP) * 100n,
    numberDailyCap: BigInt(e.AIRTIME_CASH_NUMBER_DAILY_CAP) * 100n,
    expiresMs: e.AIRTIME_CASH_EXPIRES_MINUTES * 60_000,
  };
}

/**
 * The passkey relying party: WEBAUTHN_ORIGIN (else PUBLIC_URL's origin) and WEBAUTHN_RP_ID (else that origin's host).
 * The RP ID must be the origin's host or a parent domain of it, as browsers require.
 */
function webauthnConfig(e: z.infer<typeof envSchema>): Config['webauthn'] {
  const origin = new URL(e.WEBAUTHN_ORIGIN ?? e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin;
  const host = new URL(origin).hostname;
  const rpId = e.WEBAUTHN_RP_ID ?? host;
  if (host !== rpId && !host.endsWith(`.${rpId}`))
    throw new ConfigError(`Invalid configuration:\n  WEBAUTHN_RP_ID: ${rpId} must be the host of ${origin} or a parent domain of it`);
  return { rpId, rpName: e.TOTP_ISSUER, origin };
}

/** Airtime-to-cash rates when AIRTIME_CASH_RATES does not name a network (percent of the airtime received). */
export const AIRTIME_CASH_DEFAULT_RATES = { mtn: 80, airtel: 78, glo: 75, '9mobile': 75 };

function vtuConfig(e: z.infer<typeof envSchema>, publicUrl: string): Config['vtu'] {
  const sandboxUrl = (p: string) => `${publicUrl}/sandbox/providers/${p}`;
  const timeoutMs = e.VTU_PROVIDER_TIMEOUT_MS;
  return {
    providers: {
      a: { url: e.VTU_PROVIDER_A_URL ?? sandboxUrl('a'), key: e.VTU_PROVIDER_A_KEY ?? SECRETS.VTU_PROVIDER_A_KEY.sandbox },
      b: { url: e.VTU_PROVIDER_B_URL ?? sandboxUrl('b'), key: e.VTU_PROVIDER_B_KEY ?? SECRETS.VTU_PROVIDER_B_KEY.sandbox },
      c: {
        url: e.VTU_PROVIDER_C_URL ?? sandboxUrl('c'),
        key: e.VTU_PROVIDER_C_KEY ?? SECRETS.VTU_PROVIDER_C_KEY.sandbox,
        secret: e.VTU_PROVIDER_C_SECRET ?? SECRETS.VTU_PROVIDER_C_SECRET.sandbox,
      },
      d: { url: e.VTU_PROVIDER_D_URL ?? sandboxUrl('d'), key: e.VTU_PROVIDER_D_KEY ?? SECRETS.VTU_PROVIDER_D_KEY.sandbox },
    },
    providerNames: providerNamesOf(e),
    timeoutMs,
    routing: e.VTU_ROUTING ? JSON.parse(e.VTU_ROUTING) : {},
    reconcileEveryMs: e.VTU_RECONCILE_EVERY_MS ?? (e.NODE_ENV === 'production' ? 30_000 : 5_000),
    stuckAfterMs: e.VTU_STUCK_AFTER_MS,
    notFoundGraceMs: e.VTU_NOT_FOUND_GRACE_MS,
    floatTopup: BigInt(e.VTU_FLOAT_TOPUP) * 100n,
    // The simulator holds a "4444" request past the adapter's timeout, bounded so it always ends.
    sandboxHoldMs: e.VTU_SANDBOX_HOLD_MS ?? timeoutMs + 1000,
    sandboxSlowMs: e.VTU_SANDBOX_SLOW_MS ?? Math.floor(timeoutMs / 3),
  };
}
