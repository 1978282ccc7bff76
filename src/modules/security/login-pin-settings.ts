import type { AuthUser } from '../../kernel/actor.js';
import { stepUpRequired } from './first-credential.js';
import type { PinLoginDeps } from './pin-login-deps.js';

/** Whether the user has a login PIN. */
export async function loginPinStatus({ pins }: PinLoginDeps, userId: string) {
  return { enrolled: await pins.isSet(userId, 'login') };
}

/**
 * Needs a recent proof: a grant, or for a first login PIN a session opened by an e-mailed code minutes ago
 * (first-credential.ts); the owner is told, with a "this wasn't me" link.
 */
export async function setLoginPin(deps: PinLoginDeps, user: AuthUser, pin: string, grantToken: string | undefined) {
  const { db, pins, notices } = deps;
  const had = await pins.isSet(user.id, 'login');
  if (had) await deps.reauth.require(user, grantToken);
  const proof = had ? 'grant' : await deps.firstCredential.require(user, grantToken);
  // A fresh sign-in only creates: a PIN set meanwhile (or one turned off earlier) is a change, which needs the grant.
  if (proof === 'freshSignIn') {
    if (!(await pins.setFirst(user.id, 'login', pin))) throw stepUpRequired();
  } else await pins.set(user.id, 'login', pin);
  await db.transaction((tx) => notices.notify(tx, user.id, had ? 'login_pin_changed' : 'login_pin_set'));
  return { enrolled: true };
}

/** Turns the user's login PIN off; the owner is told when there was one. */
export async function disableLoginPin({ db, pins, notices }: PinLoginDeps, user: AuthUser) {
  const had = await pins.isSet(user.id, 'login');
  await pins.disable(user.id, 'login');
  if (had) await db.transaction((tx) => notices.notify(tx, user.id, 'login_pin_disabled'));
  return { enrolled: false };
}
