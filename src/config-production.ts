import { createECDH, createPrivateKey } from 'node:crypto';
import type { z } from 'zod';
import type { envSchema } from './config-env.js';

type ParsedEnv = z.infer<typeof envSchema>;

/** Whether production needs a secret: always, only when set (unset turns its feature off), or not at all. */
type Need = 'required' | 'if set' | 'unused';

export interface SecretRule {
  /** What it is, for the message when production lacks it. */
  what: string;
  /** The value the configuration falls back to when unset (the sandbox's). It is public: production refuses it. */
  sandbox?: string;
  /** Shortest value production accepts. */
  min?: number;
  /** For keys: why the value is not one (a PEM is checked as a PEM, not by length), or null. */
  format?: (value: string, e: ParsedEnv) => string | null;
  need?: (e: ParsedEnv) => Need;
}

/**
 * Every secret the configuration reads (issue 41). One table is both the sandbox's fallbacks (config.ts reads
 * `SECRETS.X.sandbox`) and what production refuses, so a fallback added here is refused there by construction.
 * docs/security.md "Secrets refused in production" lists the same rules.
 */
export const SECRETS = {
  PIN_PEPPER: { what: 'pepper of PIN and one-time-code hashes', sandbox: 'sandbox-pin-pepper-not-for-production', min: 32 },
  DATA_ENCRYPTION_KEY: {
    what: 'key of TOTP secrets and stored provider payloads',
    sandbox: 'sandbox-data-encryption-key-not-for-production',
    min: 32,
  },
  FILE_SIGNING_SECRET: { what: 'HMAC key of signed file URLs', sandbox: 'sandbox-file-signing-secret-not-for-production', min: 32 },
  PROCESSOR_SECRET_KEY: {
    what: "the payment processor's secret key, also its webhooks' HMAC key",
    sandbox: 'sk_sandbox_processor',
    min: 24,
  },
  VTU_PROVIDER_A_KEY: { what: "provider A's API token", sandbox: 'sandbox-key-a', min: 16 },
  VTU_PROVIDER_B_KEY: { what: "provider B's API key", sandbox: 'sandbox-key-b', min: 16 },
  VTU_PROVIDER_C_KEY: { what: "provider C's api-key", sandbox: 'sandbox-key-c', min: 16 },
  VTU_PROVIDER_C_SECRET: {
    what: "provider C's secret-key, which also verifies its airtime-to-cash webhooks",
    sandbox: 'sandbox-secret-c',
    min: 16,
  },
  VTU_PROVIDER_D_KEY: { what: "provider D's x-api-key", sandbox: 'sandbox-key-d', min: 16 },
  SMS_API_KEY: { what: "the SMS gateway's API key", sandbox: 'sandbox-sms-api-key', min: 16 },
  // Unset, delivery reports are not accepted at all (their route is not mounted).
  SMS_WEBHOOK_SECRET: {
    what: 'secret of SMS delivery reports',
    sandbox: 'sandbox-sms-webhook-secret',
    min: 16,
    need: () => 'if set',
  },
  METRICS_TOKEN: { what: 'bearer token Prometheus sends for /metrics', min: 24 },
  IDENTITY_API_KEY: { what: 'bearer key of the NIN look-up and name-enquiry upstream', min: 16 },
  // Without an access key id the S3 client uses the AWS default chain (an instance role); with one, it needs this.
  S3_SECRET_ACCESS_KEY: {
    what: 'secret of S3_ACCESS_KEY_ID',
    min: 16,
    need: (e) => (e.STORAGE_DRIVER !== 's3' ? 'unused' : e.S3_ACCESS_KEY_ID ? 'required' : 'if set'),
  },
  VAPID_PRIVATE_KEY: { what: 'web push private key: npx web-push generate-vapid-keys', format: vapidKeyProblem },
  AUTH_PRIVATE_KEY: { what: 'Ed25519 private key, PKCS#8 PEM', format: ed25519KeyProblem },
  RECEIPT_SIGNING_KEY: { what: 'Ed25519 private key, PKCS#8 PEM', format: ed25519KeyProblem },
} as const satisfies Record<string, SecretRule>;

export type SecretName = keyof typeof SECRETS;

/** Values published elsewhere that a secret must not have either: the stores' documented defaults and examples. */
const PUBLISHED_VALUES: Record<string, string> = {
  minioadmin: "MinIO's default credentials",
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY': "the AWS documentation's example secret key",
};

const normal = (value: string) => value.trim().toLowerCase();

/** Every public value a secret must not have (compared trimmed, in any case), with where it is published. */
export const PUBLIC_VALUES: ReadonlyMap<string, { source: string; defaultOf?: string }> = new Map([
  ...Object.entries(SECRETS).flatMap(([name, rule]: [string, SecretRule]) =>
    rule.sandbox ? [[normal(rule.sandbox), { source: `the sandbox default of ${name}`, defaultOf: name }] as const] : [],
  ),
  ...Object.entries(PUBLISHED_VALUES).map(([value, source]) => [normal(value), { source }] as const),
]);

/** What production refuses in the secrets: unset, a public value, too short or not a key; each names its setting. */
export function secretProblems(e: ParsedEnv): string[] {
  return (Object.entries(SECRETS) as [SecretName, SecretRule][]).flatMap(([name, rule]) => {
    const problem = secretProblem(name, rule, e);
    return problem ? [problem] : [];
  });
}

function secretProblem(name: SecretName, rule: SecretRule, e: ParsedEnv): string | null {
  const need = rule.need?.(e) ?? 'required';
  const value = e[name];
  if (need === 'unused' || (!value && need === 'if set')) return null;
  if (!value) return `${name} (${rule.what}) is required in production`;
  const published = PUBLIC_VALUES.get(normal(value));
  if (published?.defaultOf === name) return `${name} still has its sandbox default value, which is public: set a secret of its own`;
  if (published) return `${name} has a public value (${published.source}): set a secret of its own`;
  if (rule.min && value.length < rule.min) return `${name} must be at least ${rule.min} characters in production`;
  const format = rule.format?.(value, e);
  return format ? `${name}: ${format}` : null;
}

/**
 * Production refuses to start on any of these: the sandbox, a database that keeps nothing, an upstream left to the
 * simulators, a test hook, and secrets unset, short or published (config-production.ts).
 */
export function productionProblems(e: ParsedEnv, sandbox: boolean): string[] {
  const problems: string[] = [];
  if (sandbox) problems.push('SANDBOX must be false in production (sandbox simulators are refused)');
  if (!e.DATABASE_URL) problems.push('DATABASE_URL is required in production (PostgreSQL 15+)');
  else if (!/^postgres(ql)?:\/\//i.test(e.DATABASE_URL))
    problems.push(
      'DATABASE_URL must be a PostgreSQL URL (postgres://...) in production: memory:// and pglite: keep no durable, shared data',
    );
  if (e.DATABASE_READ_URL && !/^postgres(ql)?:\/\//i.test(e.DATABASE_READ_URL))
    problems.push('DATABASE_READ_URL must be a PostgreSQL URL (postgres://...) of a streaming replica of DATABASE_URL');
  if (e.TRUST_PROXY === true)
    problems.push(
      'TRUST_PROXY=true believes the left-most X-Forwarded-For entry, which any client writes: set the number of proxies in front (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.0/8)',
    );
  if (!e.PROCESSOR_BASE_URL) problems.push('PROCESSOR_BASE_URL is required in production');
  if (!e.SMTP_URL) problems.push('SMTP_URL is required in production');
  if (!e.SMS_PROVIDER) problems.push('SMS_PROVIDER (termii or africastalking) is required in production: phone verification sends SMS');
  if (e.SMS_PROVIDER === 'africastalking' && !e.SMS_USERNAME)
    problems.push("SMS_USERNAME (the Africa's Talking account name) is required with SMS_PROVIDER=africastalking");
  if (!e.VAPID_PUBLIC_KEY) problems.push('VAPID_PUBLIC_KEY is required in production (npx web-push generate-vapid-keys)');
  if (!e.VAPID_SUBJECT) problems.push('VAPID_SUBJECT (mailto: or https: contact of the operator) is required in production');
  if (!e.PUBLIC_URL) problems.push('PUBLIC_URL is required in production');
  for (const p of ['A', 'B', 'C', 'D'] as const) {
    if (!e[`VTU_PROVIDER_${p}_URL`]) problems.push(`VTU_PROVIDER_${p}_URL is required in production (the sandbox simulators are refused)`);
  }
  if (e.FAULT_POINT) problems.push('FAULT_POINT is a test-only crash hook and must not be set in production');
  if (!e.IDENTITY_BASE_URL) problems.push('IDENTITY_BASE_URL (NIN look-up and bank name enquiry upstream) is required in production');
  // Unset, short, not a key, or a value published in the source (a sandbox fallback) or a store's docs (issue 41).
  problems.push(...secretProblems(e));
  return problems;
}

/** Why a PKCS#8 PEM setting is not a usable Ed25519 private key, or null (unset is fine: generated outside production). */
export function ed25519KeyProblem(pem: string | undefined): string | null {
  if (!pem) return null;
  try {
    const key = createPrivateKey(pem.replace(/\\n/g, '\n'));
    return key.asymmetricKeyType === 'ed25519'
      ? null
      : `expected an Ed25519 private key, got ${key.asymmetricKeyType ?? 'another kind of key'}`;
  } catch {
    return 'not a readable private key (expected an Ed25519 private key as PKCS#8 PEM: openssl genpkey -algorithm ed25519)';
  }
}

/** Why VAPID_PRIVATE_KEY is not the P-256 private key (32 bytes, base64url) of VAPID_PUBLIC_KEY, or null. */
function vapidKeyProblem(privateKey: string, e: ParsedEnv): string | null {
  const raw = Buffer.from(privateKey, 'base64url');
  const unpadded = (s: string) => s.trim().replace(/=+$/, '');
  if (raw.length !== 32 || raw.toString('base64url') !== unpadded(privateKey))
    return 'not a P-256 private key (32 bytes, base64url: npx web-push generate-vapid-keys)';
  let publicKey: string;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(raw);
    publicKey = ecdh.getPublicKey().toString('base64url');
  } catch {
    return 'not a P-256 private key (32 bytes, base64url: npx web-push generate-vapid-keys)';
  }
  if (e.VAPID_PUBLIC_KEY && unpadded(e.VAPID_PUBLIC_KEY) !== publicKey)
    return 'not the private key of VAPID_PUBLIC_KEY (the two are one key pair)';
  return null;
}

/** A setting that is allowed but weakens the deployment: logged at start and shown in the operator console. */
export interface ConfigWarning {
  code: 'OPERATOR_2FA_OPTIONAL';
  message: string;
}

export function configWarnings(config: { production: boolean; operators: { twoFactor: 'required' | 'optional' } }): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  if (config.production && config.operators.twoFactor === 'optional')
    warnings.push({
      code: 'OPERATOR_2FA_OPTIONAL',
      message:
        'OPERATOR_2FA=optional: operators without a second factor (authenticator or passkey) run admin operations, so an e-mailed sign-in code alone can move money. Set OPERATOR_2FA=required once every operator has enrolled one.',
    });
  return warnings;
}
