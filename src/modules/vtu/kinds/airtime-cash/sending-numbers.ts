import { codeText } from '../../../../kernel/code-texts.js';
import { AppError } from '../../../../kernel/errors.js';
import { codeTextsFor } from '../../../notifications/api.js';
import type { AirtimeCashDeps } from './deps.js';
import * as repo from './repository.js';

/** Texts a code that proves the caller holds `phone`; nothing to send for a number already verified. */
export async function sendNumberCode({ db, log, otp, sms }: AirtimeCashDeps, userId: string, phone: string, ip?: string) {
  if (await repo.isVerifiedSender(db, userId, phone)) return { sent: false, alreadyVerified: true, expiresInSeconds: 0 };
  const code = await otp.issue('sending_number', `${userId}:${phone}`, ip);
  try {
    const t = (await codeTextsFor(db, { userId })).sendingNumberCode;
    await sms.send({ to: phone, text: codeText(t, { code, phone }) });
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'sending-number SMS could not be sent');
    throw new AppError('UPSTREAM_ERROR', 'The SMS could not be sent just now; try again in a minute');
  }
  return { sent: true, alreadyVerified: false, expiresInSeconds: 600 };
}

/** The SMS code checked: `phone` becomes one of the caller's verified sending numbers. */
export async function verifyNumber({ db, clock, otp }: AirtimeCashDeps, userId: string, phone: string, code: string, ip?: string) {
  await otp.verify('sending_number', `${userId}:${phone}`, code, { ip });
  await repo.addNumber(db, userId, phone, clock.now());
  return { phone, verified: true };
}

/** The caller's verified sending numbers. */
export async function numbers({ db }: AirtimeCashDeps, userId: string) {
  return { items: await repo.listNumbers(db, userId) };
}
