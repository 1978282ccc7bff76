import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { Ledger } from '../../ledger/types.js';
import type { Work } from '../../platform/change.js';
import { fillFullName, setTier, takeUsername, userIdByEmail, type IdentityService } from '../identity/api.js';
import { recordVerifiedTier2 } from '../kyc/api.js';

/**
 * What the live world tells the test world of a customer when it ensures the shadow account: the e-mail, the tier,
 * the username and the name the live Tier 2 record verified (null below Tier 2 or without one).
 */
export type ShadowOwner = Pick<AuthUser, 'email' | 'kycTier' | 'username'> & { verifiedName: string | null };

/** The test world's shadow accounts: made on first use from the live customer's e-mail and tier (at least 1). */
export function shadowAccounts(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  work: Work;
  identity: IdentityService;
  /** Set in the live world (it has a test world): there no account is ever made a shadow, nor verified by mirror. */
  testWorld: unknown;
}) {
  const { db, clock, ledger, work, identity } = deps;
  const idOf = async (email: string) => {
    const id = await userIdByEmail(db, email);
    if (!id) throw new AppError('NOT_FOUND', 'No test wallet yet: create a test key first');
    return id;
  };
  return {
    idOf,
    /**
     * The shadow account of a live customer, made or brought to what a test key's operations check: the customer's
     * tier, username and (at Tier 2) verified name, so a transfer by test key passes as a live one would. Runs on
     * every key creation and funding: a read and, at Tier 2, one statement when nothing changed.
     */
    async ensure(owner: ShadowOwner): Promise<string> {
      // A shadow is verified by the live world's word: only ever in the test world's own database.
      if (deps.testWorld) throw new Error('shadow accounts are made in the test world only');
      const user = await identity.ensureUser(owner.email);
      const tier = Math.max(1, owner.kycTier);
      const name = tier >= 2 ? owner.verifiedName : null;
      const now = clock.now();
      const stale = new Set<string>();
      if (user.kyc_tier < tier || (owner.username && user.username !== owner.username) || (name && !user.full_name)) {
        await db.transaction(async (tx) => {
          if (user.kyc_tier < tier) await setTier(tx, user.id, tier, now);
          if (owner.username && user.username !== owner.username)
            for (const id of await takeUsername(tx, user.id, owner.username, now)) stale.add(id);
          if (name && !user.full_name) await fillFullName(tx, user.id, name, now);
        });
        stale.add(user.id);
      }
      if (name) await recordVerifiedTier2(db, user.id, name, now);
      for (const id of stale) identity.forgetUser(id);
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
