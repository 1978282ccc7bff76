import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { Ledger } from '../../ledger/types.js';
import type { Work } from '../../platform/change.js';
import { setTier, userIdByEmail, type IdentityService } from '../identity/api.js';

/** The test world's shadow accounts: made on first use from the live customer's e-mail and tier (at least 1). */
export function shadowAccounts(deps: { db: Db; clock: Clock; ledger: Ledger; work: Work; identity: IdentityService }) {
  const { db, clock, ledger, work, identity } = deps;
  const idOf = async (email: string) => {
    const id = await userIdByEmail(db, email);
    if (!id) throw new AppError('NOT_FOUND', 'No test wallet yet: create a test key first');
    return id;
  };
  return {
    idOf,
    /** The shadow account of a live customer, made or brought to the customer's tier. */
    async ensure(owner: Pick<AuthUser, 'email' | 'kycTier'>): Promise<string> {
      const user = await identity.ensureUser(owner.email);
      const tier = Math.max(1, owner.kycTier);
      if (user.kyc_tier !== tier) {
        await setTier(db, user.id, tier, clock.now());
        identity.forgetUser(user.id);
      }
      return user.id;
    },
    /** Test money into the shadow's wallet, from the test world's adjustments account (its own ledger). */
    async fund(email: string, naira: number): Promise<number> {
      const userId = await idOf(email);
      const amount = toKobo(naira);
      const { posted } = await work
        .change()
        .post({
          reference: `testfund:${randomUUID()}`,
          type: 'adjustment',
          description: 'Test wallet funding (test mode)',
          entries: [
            { account: { user: userId, kind: 'wallet' }, amount },
            { account: { system: 'adjustments' }, amount: -amount },
          ],
        })
        .commit();
      return toNaira(posted!.balances[`user:${userId}:wallet`] ?? 0n);
    },
    async balance(email: string): Promise<number> {
      const id = await userIdByEmail(db, email);
      return id ? toNaira(await ledger.balance(db, { user: id, kind: 'wallet' })) : 0;
    },
  };
}

export type ShadowAccounts = ReturnType<typeof shadowAccounts>;
