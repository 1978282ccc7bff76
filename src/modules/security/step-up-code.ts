import { codeText } from '../../kernel/code-texts.js';
import { AppError } from '../../kernel/errors.js';
import { codeTextsFor } from '../notifications/api.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { CodeSource } from './code-tries.js';
import { cancelNotMeRemoval } from './two-factor-removal.js';
import { issueGrant, stepUpMethodsOf } from './step-up-methods.js';
import { GRANT_TTL_MS, type TwoFactorDeps, type TwoFactorFactor } from './two-factor-factor.js';

/**
 * Always sends: the e-mailed code confirms a credential change (verifyStepupChallenge) and asks for or cancels
 * a two-factor reset. While an authenticator is on, it yields a grant only in a session opened with the login
 * PIN (emailStepUpAllowed), so e-mail is never the only factor.
 */
export async function sendEmailCode(
  { db, otp, mailer }: TwoFactorDeps,
  { isEnrolled, passkeyOn }: TwoFactorFactor,
  user: AuthUser,
  meta: { ip?: string } = {},
) {
  const code = await otp.issue('stepup', user.email, meta.ip);
  const t = (await codeTextsFor(db, { userId: user.id })).stepUpCode;
  await mailer.send({ to: user.email, subject: t.subject, text: codeText(t.text, { code }) });
  // Sent even where it confirms nothing here (it asks for a reset); the answer says what this session may use.
  return {
    sent: true,
    expiresInSeconds: 600,
    stepUpMethods: await stepUpMethodsOf(db, user, await isEnrolled(user.id), await passkeyOn(user)),
  };
}

/** spec 4.3: the input is a TOTP code or an e-mailed step-up code (within emailStepUpAllowed); either yields a grant. */
export async function verifyChallenge(deps: TwoFactorDeps, factor: TwoFactorFactor, user: AuthUser, code: string, meta: CodeSource = {}) {
  const { db, clock, otp } = deps;
  const { codeTries, factorOf, acceptTotp, emailStepUpAllowed } = factor;
  const f = await factorOf(user.id);
  const from = await codeTries.sourceOf(user, meta);
  const key = codeTries.keyOf(user, from.device);
  let method: 'totp' | 'email';
  if (f?.confirmed_at) {
    const tries = await codeTries.reserve(key);
    const totp = await acceptTotp(user.id, f, code, false, key);
    if (totp === 'replay') {
      await codeTries.release(key);
      throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
    }
    if (totp === 'ok') {
      method = 'totp';
      // Proving the authenticator cancels a removal asked for through "this wasn't me" (issue 28).
      await cancelNotMeRemoval(db, deps.work, user.id, clock.now());
    } else if (!(await emailStepUpAllowed(user, f))) {
      await codeTries.fail(key, tries);
      throw new AppError(
        'OTP_INVALID',
        'The authenticator code is wrong or has already been used (this session needs the app code, not an e-mailed one)',
      );
    } else {
      try {
        await otp.verify('stepup', user.email, code, from);
      } catch {
        await codeTries.fail(key, tries);
        throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      }
      await codeTries.release(key);
      method = 'email';
    }
  } else {
    // An operator's passkey is a second factor: an e-mailed code alone then confirms only a PIN session.
    if (!(await emailStepUpAllowed(user, f)))
      throw new AppError('OTP_INVALID', 'This session needs your passkey (method "passkey"), not an e-mailed code');
    await otp.verify('stepup', user.email, code, from);
    method = 'email';
  }
  return issueGrant(db, clock, user, method, GRANT_TTL_MS);
}
