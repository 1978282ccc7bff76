import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import type { PinService } from '../identity/api.js';
import type { FirstCredential } from './first-credential.js';
import type { PasskeyDeps } from './passkey-deps.js';
import type { PasskeySignInDeps } from './passkey-sign-in.js';

/** What a customer's passkeys (passkey-customer.ts, passkey-sign-in.ts, passkey-payments.ts) use beyond PasskeyDeps. */
export interface CustomerPasskeyDeps extends PasskeyDeps {
  identity: PasskeySignInDeps['identity'];
  pins: PinService;
  /** A recent proof for adding a credential: a step-up grant, or (a first one) a fresh e-mail-code sign-in. */
  firstCredential: FirstCredential;
}

/** Whether the customer confirms payments with a passkey (passkey_settings; off without a row). */
export async function paymentsOn(exec: Executor, userId: string): Promise<boolean> {
  const r = await one<{ payments: boolean }>(exec, sql`SELECT payments FROM passkey_settings WHERE user_id = ${userId}`);
  return Boolean(r?.payments);
}

export async function savePayments({ db, clock }: CustomerPasskeyDeps, userId: string, on: boolean) {
  await db.execute(sql`INSERT INTO passkey_settings (user_id, payments, updated_at) VALUES (${userId}, ${on}, ${clock.now()})
                       ON CONFLICT (user_id) DO UPDATE SET payments = EXCLUDED.payments, updated_at = EXCLUDED.updated_at`);
}
