import { generateKeyPairSync } from 'node:crypto';

/** Every setting production requires, with non-default values: the base of the production-config tests. */
const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
export const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://127.0.0.1:1/never',
  PIN_PEPPER: 'p'.repeat(40),
  DATA_ENCRYPTION_KEY: 'd'.repeat(40),
  FILE_SIGNING_SECRET: 'f'.repeat(40),
  PROCESSOR_SECRET_KEY: 'sk_live_x',
  PROCESSOR_BASE_URL: 'https://api.processor.example',
  SMTP_URL: 'smtp://mail',
  SMS_PROVIDER: 'termii',
  SMS_API_KEY: 'sms-api-key-for-tests',
  PUBLIC_URL: 'https://api.example.com',
  AUTH_PRIVATE_KEY: key,
  RECEIPT_SIGNING_KEY: key,
  VAPID_PUBLIC_KEY: 'x',
  VAPID_PRIVATE_KEY: 'y',
  VAPID_SUBJECT: 'mailto:ops@example.com',
  METRICS_TOKEN: 'metrics-token-for-tests-0123456789',
  IDENTITY_BASE_URL: 'https://identity.example',
  VTU_PROVIDER_A_URL: 'https://a.vtu.example',
  VTU_PROVIDER_A_KEY: 'ka',
  VTU_PROVIDER_B_URL: 'https://b.vtu.example',
  VTU_PROVIDER_B_KEY: 'kb',
  VTU_PROVIDER_C_URL: 'https://c.vtu.example',
  VTU_PROVIDER_C_KEY: 'kc',
  VTU_PROVIDER_D_URL: 'https://d.vtu.example',
  VTU_PROVIDER_D_KEY: 'kd',
};
