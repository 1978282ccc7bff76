import type { Executor } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { verifiedTier2Name } from '../kyc/api.js';
import { tested } from './key-rows.js';
import type { DevelopersDeps } from './deps.js';
import type { ShadowOwner } from './shadow-accounts.js';

/** Funding a test wallet from the developer page: at most this much a time. */
export const TEST_FUNDING_MAX_NAIRA = 1_000_000;

/** A live customer as the live world knows them, for their shadow account in the test world. */
export type ShadowHolder = Pick<AuthUser, 'id' | 'email' | 'kycTier'> & Partial<Pick<AuthUser, 'username'>>;

/**
 * What the test world's shadow account mirrors of a live customer (shadow-accounts.ts ensure): read here, in the live
 * world, where the customer's verified name is (one read, at Tier 2 only).
 */
export async function shadowOwner(exec: Executor, user: ShadowHolder): Promise<ShadowOwner> {
  const verifiedName = user.kycTier >= 2 ? await verifiedTier2Name(exec, user.id) : null;
  return { email: user.email, kycTier: user.kycTier, username: user.username ?? null, verifiedName };
}

/** The customer's test wallet: its balance in the test world, after adding `naira` when asked to. */
export async function testWallet(deps: DevelopersDeps, user: ShadowHolder, naira?: number): Promise<{ balance: number }> {
  const tw = await tested(deps);
  if (naira === undefined) return { balance: await tw.shadow.balance(user.email) };
  await tw.shadow.ensure(await shadowOwner(deps.db, user));
  return { balance: await tw.shadow.fund(user.email, naira) };
}
