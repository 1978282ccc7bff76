import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { Logger } from '../../lib/logger.js';
import type { Mailer, OutboundEmail } from '../../providers/messaging.js';
import type { Outbox } from '../notifications/api.js';

/** Seconds a client is told to wait (Retry-After) when the mail server refused a code. */
export const EMAIL_RETRY_AFTER_SECONDS = 60;

export interface CodeMail {
  /** Mails a one-time code that stops working at `expiresAt`. */
  send(mail: OutboundEmail, expiresAt: Date): Promise<void>;
}

/**
 * E-mailed one-time codes go straight to the mail server: the person is waiting for them. When the server refuses
 * (SMTP down or unreachable), the code is not lost: the same e-mail goes to the outbox, whose job retries it with
 * backoff and drops it once the code has expired, and the caller gets EMAIL_UNAVAILABLE (503, Retry-After) instead of
 * an unexplained 500.
 */
export function createCodeMail(deps: { mailer: Mailer; outbox: Outbox; db: Db; clock: Clock; log?: Logger }): CodeMail {
  const { mailer, outbox, db } = deps;
  return {
    async send(mail, expiresAt) {
      try {
        await mailer.send(mail);
      } catch (err) {
        deps.log?.warn({ err: (err as Error).message }, 'mail server refused a one-time code; queued in the outbox');
        await outbox.sendEmail(db, { ...mail, notAfter: expiresAt.toISOString() });
        throw new AppError(
          'EMAIL_UNAVAILABLE',
          'The e-mail could not be sent just now; the code will be sent as soon as the mail server answers again',
          { retryAfter: EMAIL_RETRY_AFTER_SECONDS, cause: err },
        );
      }
    },
  };
}
