import type { AuthUser } from '../../kernel/actor.js';
import { tested } from './key-rows.js';
import type { DevelopersDeps } from './deps.js';

/** Funding a test wallet from the developer page: at most this much a time. */
export const TEST_FUNDING_MAX_NAIRA = 1_000_000;

/** The customer's test wallet: its balance in the test world, after adding `naira` when asked to. */
export async function testWallet(
  deps: DevelopersDeps,
  user: Pick<AuthUser, 'email' | 'kycTier'>,
  naira?: number,
): Promise<{ balance: number }> {
  const tw = await tested(deps);
  if (naira === undefined) return { balance: await tw.shadow.balance(user.email) };
  await tw.shadow.ensure(user);
  return { balance: await tw.shadow.fund(user.email, naira) };
}
