import { generateKeyPairSync } from 'node:crypto';
import webpush from 'web-push';

/** Every setting production requires, with non-default values: the base of the production-config tests. */
const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
// web-push pads the private key to 32 bytes; node:crypto's getPrivateKey() drops a leading zero byte.
const vapid = webpush.generateVAPIDKeys();
export const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://127.0.0.1:1/never',
  PIN_PEPPER: 'p'.repeat(40),
  DATA_ENCRYPTION_KEY: 'd'.repeat(40),
  FILE_SIGNING_SECRET: 'f'.repeat(40),
  PROCESSOR_SECRET_KEY: 'sk_live_processor-secret-for-tests',
  PROCESSOR_BASE_URL: 'https://api.processor.example',
  SMTP_URL: 'smtp://mail',
  SMS_PROVIDER: 'termii',
  SMS_API_KEY: 'sms-api-key-for-tests',
  PUBLIC_URL: 'https://api.example.com',
  AUTH_PRIVATE_KEY: key,
  RECEIPT_SIGNING_KEY: key,
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  VAPID_SUBJECT: 'mailto:ops@example.com',
  METRICS_TOKEN: 'metrics-token-for-tests-0123456789',
  IDENTITY_BASE_URL: 'https://identity.example',
  IDENTITY_API_KEY: 'identity-api-key-for-tests',
  VTU_PROVIDER_A_URL: 'https://a.vtu.example',
  VTU_PROVIDER_A_KEY: 'provider-a-key-for-tests',
  VTU_PROVIDER_B_URL: 'https://b.vtu.example',
  VTU_PROVIDER_B_KEY: 'provider-b-key-for-tests',
  VTU_PROVIDER_C_URL: 'https://c.vtu.example',
  VTU_PROVIDER_C_KEY: 'provider-c-key-for-tests',
  VTU_PROVIDER_C_SECRET: 'provider-c-secret-for-tests',
  VTU_PROVIDER_D_URL: 'https://d.vtu.example',
  VTU_PROVIDER_D_KEY: 'provider-d-key-for-tests',
};
