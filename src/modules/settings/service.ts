import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { Ledger } from '../../ledger/ledger.js';
import { lockUser, scrub, type PinService } from '../identity/api.js';
import { stepUpRequired, type FirstCredential } from '../security/api.js';
import type { Notifier } from '../notifications/api.js';
import { applyPatch, normalisePreferences, readPreferences, type PreferencesPatch } from './preferences.js';
import { writeAudit } from '../../db/audit.js';

export interface SettingsDeps {
  db: Db;
  clock: Clock;
  pins: PinService;
  ledger: Ledger;
  notifier: Notifier;
  work: Work;
  /** A recent proof beyond the access token: the security module's reauth gate. */
  reauth: { require(user: AuthUser, grantToken: string | undefined): Promise<void> };
  /** The proof for a first PIN: a grant, or a session opened by an e-mailed code minutes ago (issue 29). */
  firstCredential: Pick<FirstCredential, 'require'>;
  notices: { notify(exec: Executor, userId: string, change: 'transaction_pin_set' | 'transaction_pin_changed'): Promise<void> };
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}

export type SettingsService = ReturnType<typeof createSettingsService>;

export function createSettingsService(deps: SettingsDeps) {
  const { db, clock, pins, ledger, work, reauth, notices, forgetUser } = deps;

  return {
    async hasTransactionPin(userId: string) {
      return { hasPin: await pins.isSet(userId, 'transaction') };
    },

    /**
     * spec 4.8: setting or changing the PIN needs a recent proof (a step-up grant: with a stolen access
     * token alone nobody can set the PIN that spends the wallet); changing it also needs currentPin (checked with
     * the lockout). The grant is checked first so a missing grant costs no attempt. The FIRST PIN may instead come
     * within 10 minutes of signing in with an e-mailed code (no second code during onboarding, issue 29).
     */
    async setTransactionPin(user: AuthUser, pin: string, currentPin: string | undefined, grantToken: string | undefined) {
      const had = await pins.isSet(user.id, 'transaction');
      if (!had && (await deps.firstCredential.require(user, grantToken)) === 'freshSignIn') {
        // Creates only: a PIN set meanwhile by another request is a change, which needs the grant.
        if (!(await pins.setFirst(user.id, 'transaction', pin))) throw stepUpRequired();
        await db.transaction((tx) => notices.notify(tx, user.id, 'transaction_pin_set'));
        return { hasPin: true };
      }
      await reauth.require(user, grantToken);
      if (had) {
        if (!currentPin) {
          throw new AppError('VALIDATION_FAILED', 'currentPin: currentPin is required to change the transaction PIN', {
            issues: [{ path: 'currentPin', message: 'currentPin is required to change the transaction PIN' }],
          });
        }
        await pins.verify(user.id, 'transaction', currentPin);
      }
      await pins.set(user.id, 'transaction', pin);
      await db.transaction((tx) => notices.notify(tx, user.id, had ? 'transaction_pin_changed' : 'transaction_pin_set'));
      return { hasPin: true };
    },

    async getPreferences(userId: string) {
      return { preferences: await readPreferences(db, userId) };
    },

    async updatePreferences(userId: string, patch: PreferencesPatch) {
      const now = clock.now();
      const preferences = await db.transaction(async (tx) => {
        // Lock the row (created if missing) so two partial updates merge instead of overwriting each other.
        await tx.execute(sql`INSERT INTO user_preferences (user_id, prefs, updated_at) VALUES (${userId}, '{}'::jsonb, ${now})
                             ON CONFLICT (user_id) DO NOTHING`);
        const row = await one<{ prefs: unknown }>(tx, sql`SELECT prefs FROM user_preferences WHERE user_id = ${userId} FOR UPDATE`);
        const next = applyPatch(normalisePreferences(row?.prefs), patch);
        await tx.execute(
          sql`UPDATE user_preferences SET prefs = ${JSON.stringify(next)}::jsonb, updated_at = ${now} WHERE user_id = ${userId}`,
        );
        return next;
      });
      return { preferences };
    },

    /**
     * Closes the account: refused while money is held (wallet or savings) or a loan is open; personal data is
     * anonymised, every session and grant ends, the ledger is kept untouched for the books.
     */
    async closeAccount(user: AuthUser) {
      const now = clock.now();
      await db.transaction(async (tx) => {
        await lockUser(tx, user.id);
        // Lock the user's ledger accounts so a credit cannot land between the balance check and the close.
        await tx.execute(sql`SELECT id FROM accounts WHERE user_id = ${user.id} FOR UPDATE`);
        const b = await ledger.userBalances(tx, user.id);
        if (b.wallet > 0n || b.savings > 0n) {
          throw new AppError('ACCOUNT_HAS_FUNDS', 'Withdraw or spend your wallet and savings balance before closing the account');
        }
        if (b.loan !== 0n) throw new AppError('LOAN_OUTSTANDING', 'Repay your open loan before closing the account');
        await scrub(tx, user.id, now);
        await tx.execute(sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'account_closed'
                             WHERE user_id = ${user.id} AND status = 'active'`);
        await tx.execute(sql`UPDATE stepup_grants SET revoked_at = ${now} WHERE user_id = ${user.id} AND revoked_at IS NULL`);
        await tx.execute(sql`DELETE FROM user_pins WHERE user_id = ${user.id}`);
        await tx.execute(sql`DELETE FROM totp_factors WHERE user_id = ${user.id}`);
        await tx.execute(sql`DELETE FROM user_preferences WHERE user_id = ${user.id}`);
        await tx.execute(sql`UPDATE login_events SET ip = NULL, user_agent = NULL, device = NULL WHERE user_id = ${user.id}`);
        await tx.execute(sql`DELETE FROM phone_verifications WHERE user_id = ${user.id}`);
        await writeAudit(tx, {
          actorId: user.id,
          action: 'account.closed',
          subjectType: 'user',
          subjectId: user.id,
          details: null,
          at: now,
        });
        // Other areas scrub what they hold (KYC files, push endpoints, ...) in this same transaction.
        await work.change(tx).emit('account.closed', { userId: user.id }).commit();
      });
      forgetUser(user.id);
      return { closed: true };
    },
  };
}
