import { sql } from 'drizzle-orm';
import { codeText } from '../../kernel/code-texts.js';
import { AppError } from '../../kernel/errors.js';
import { codeTextsFor } from '../notifications/api.js';
import { OTP_TTL_MS } from './otp.js';
import { createUser, findUserByEmail } from './accounts.js';
import { openSession } from './sessions.js';
import { signInNeedsSecondFactor } from './authenticate.js';
import type { IdentityUseCaseDeps, SessionView } from './deps.js';

/** Issues a sign-in code for an e-mail address and mails it. */
export async function sendLoginOtp({ db, otp, codeMail, clock }: IdentityUseCaseDeps, email: string, meta: { ip?: string } = {}) {
  const code = await otp.issue('login', email.toLowerCase(), meta.ip);
  // In the account's saved language, as admins worded it; English for an address with no account yet (issues 43, 44).
  const t = (await codeTextsFor(db, { email })).signInCode;
  await codeMail.send({ to: email, subject: t.subject, text: codeText(t.text, { code }) }, new Date(clock.now().getTime() + OTP_TTL_MS));
}

/**
 * Opens a session for the code's owner. `deviceTokens`: the caller's device cookie; a known device of the account
 * guesses on its own budget (otp.ts). Returns the tokens the device cookie holds from now on.
 */
export async function verifyLoginOtp(
  deps: IdentityUseCaseDeps,
  input: { email: string; code: string; referralCode?: string },
  meta: { ip?: string; userAgent?: string; deviceTokens?: readonly string[] },
): Promise<{ session: SessionView; deviceTokens: string[] }> {
  const { db, otp, devices } = deps;
  const email = input.email.toLowerCase();
  const known = await findUserByEmail(db, email);
  const device = known && meta.deviceTokens?.length ? await devices.recognise(known.id, meta) : null;
  await otp.verify('login', email, input.code, { ip: meta.ip, device });
  let user = known;
  if (user && user.status !== 'active') throw new AppError('ACCOUNT_CLOSED', 'This account has been closed');
  if (!user) {
    user = await db.transaction(async (tx) => {
      const created = await createUser(deps, tx, email);
      if (input.referralCode) {
        await tx.execute(sql`UPDATE users SET signup_referral_code = ${input.referralCode} WHERE id = ${created.id}`);
      }
      if (deps.onSignup) await deps.onSignup(tx, created.id, input.referralCode);
      return created;
    });
  }
  // Issue 43: a device the account does not know waits for the second factor, and becomes known only after it.
  const pending = !device && Boolean(known) && (await signInNeedsSecondFactor(deps, user));
  const session = await openSession(deps, user, 'email_otp', meta, pending);
  return { session, deviceTokens: pending ? [] : await devices.remember(user.id, meta) };
}
