import { AppError } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import { stepUpRequired } from '../security/api.js';
import type { SettingsDeps } from './deps.js';

/** Whether the user has a transaction PIN. */
export async function hasTransactionPin({ pins }: SettingsDeps, userId: string) {
  return { hasPin: await pins.isSet(userId, 'transaction') };
}

/**
 * spec 4.8: setting or changing the PIN needs a recent proof (a step-up grant: with a stolen access
 * token alone nobody can set the PIN that spends the wallet); changing it also needs currentPin (checked with
 * the lockout). The grant is checked first so a missing grant costs no attempt. The FIRST PIN may instead come
 * within 10 minutes of signing in with an e-mailed code (no second code during onboarding, issue 29).
 */
export async function setTransactionPin(
  deps: SettingsDeps,
  user: AuthUser,
  pin: string,
  currentPin: string | undefined,
  grantToken: string | undefined,
) {
  const { db, pins, reauth, notices } = deps;
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
}
