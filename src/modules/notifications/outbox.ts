import { z } from 'zod';
import type { Executor } from '../../db/client.js';
import type { JobQueue, JobRequest } from '../../jobs/queue.js';
import type { Work } from '../../platform/change.js';
import { SECOND, type Clock } from '../../kernel/clock.js';
import type { Mailer, OutboundEmail, SmsSender } from '../../providers/messaging.js';

/**
 * Reliable outbound mail and SMS. sendEmail/sendSms enqueue a job inside the caller's transaction, so
 * a rolled-back change never sends; the job calls services.mailer / services.sms with retries and exponential
 * backoff and ends in the dead-letter list (adminListDeadLetters) after the last attempt. OTP codes are the one
 * exception: identity sends those directly because the user is waiting on them, and hands one to the outbox only
 * when the mail server refused it, with `notAfter` (the code's expiry) so a code never arrives after it stopped working.
 */
export const OUTBOX_EMAIL_JOB = 'outbox.email';
export const OUTBOX_SMS_JOB = 'outbox.sms';
/** 6 attempts, 30 s doubling: the last try is about 16 minutes after the first. */
export const OUTBOX_MAX_ATTEMPTS = 6;
export const OUTBOX_BACKOFF_MS = 30 * SECOND;
/** E-mail jobs one claim of the mail lane works through together (a purchase burst leaves one per notification). */
export const OUTBOX_EMAIL_BATCH = 25;
/** E-mails of a batch in flight at once when the mailer sends one at a time (SMTP): what the general loop allowed. */
export const OUTBOX_SEND_CONCURRENCY = 8;

const emailPayload = z.object({
  to: z.string().email().max(254),
  subject: z.string().min(1).max(200),
  text: z.string().min(1).max(20_000),
  /** An e-mail that is worthless after this instant (an expiring code) is dropped instead of sent late. */
  notAfter: z.iso.datetime().optional(),
});
const smsPayload = z.object({
  to: z.string().min(5).max(20),
  text: z.string().min(1).max(640),
});

export type OutboxEmail = z.infer<typeof emailPayload>;
export type OutboxSms = z.infer<typeof smsPayload>;

export interface Outbox {
  sendEmail(exec: Executor, mail: OutboxEmail, opts?: { dedupeKey?: string }): Promise<void>;
  sendSms(exec: Executor, sms: OutboxSms, opts?: { dedupeKey?: string }): Promise<void>;
  /** The job sendEmail enqueues, for a caller that enqueues several on one change. */
  emailJob(mail: OutboxEmail, opts?: { dedupeKey?: string }): JobRequest;
  /** The job sendSms enqueues, likewise. */
  smsJob(sms: OutboxSms, opts?: { dedupeKey?: string }): JobRequest;
}

export function createOutbox({ work }: { work: Work }): Outbox {
  const emailJob = (mail: OutboxEmail, opts: { dedupeKey?: string } = {}): JobRequest => ({
    name: OUTBOX_EMAIL_JOB,
    payload: mail,
    opts: { singletonKey: opts.dedupeKey ? `mail:${opts.dedupeKey}` : undefined },
  });
  const smsJob = (sms: OutboxSms, opts: { dedupeKey?: string } = {}): JobRequest => ({
    name: OUTBOX_SMS_JOB,
    payload: sms,
    opts: { singletonKey: opts.dedupeKey ? `sms:${opts.dedupeKey}` : undefined },
  });
  const enqueue = async (exec: Executor, job: JobRequest) => {
    await work.change(exec).enqueue(job.name, job.payload, job.opts).commit();
  };
  return {
    sendEmail: (exec, mail, opts) => enqueue(exec, emailJob(mail, opts)),
    sendSms: (exec, sms, opts) => enqueue(exec, smsJob(sms, opts)),
    emailJob,
    smsJob,
  };
}

/**
 * The mails of a batch through `mailer`: its sendMany when it has one, else one send each, OUTBOX_SEND_CONCURRENCY
 * at a time. Each mail's own error (null: sent), so one refused address fails only its job.
 */
export async function sendEach(mailer: Mailer, mails: readonly OutboundEmail[]): Promise<unknown[]> {
  if (!mails.length) return [];
  if (mailer.sendMany) return mailer.sendMany(mails);
  const answers: unknown[] = mails.map(() => null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < mails.length; i = next++)
      answers[i] = await mailer.send(mails[i]).then(
        () => null,
        (err: unknown) => err,
      );
  };
  await Promise.all(Array.from({ length: Math.min(OUTBOX_SEND_CONCURRENCY, mails.length) }, worker));
  return answers;
}

export function registerOutboxJobs(services: { jobs: JobQueue; mailer: Mailer; sms: SmsSender; clock: Clock }) {
  const late = (notAfter: string | undefined) => Boolean(notAfter && services.clock.now().getTime() > Date.parse(notAfter));
  services.jobs.register({
    name: OUTBOX_EMAIL_JOB,
    payload: emailPayload,
    maxAttempts: OUTBOX_MAX_ATTEMPTS,
    backoffMs: OUTBOX_BACKOFF_MS,
    handler: async ({ notAfter, ...mail }) => {
      if (late(notAfter)) return;
      await services.mailer.send(mail);
    },
    // Worked in batches by a lane of its own: the sandbox captures a batch in one INSERT, and a batch's jobs are
    // claimed and completed by one statement each, instead of a claim share and a completion per mail.
    batch: {
      size: OUTBOX_EMAIL_BATCH,
      handler: async (items, lane) => {
        const answers: unknown[] = items.map(() => null);
        const due = items.flatMap((it, i) => (late(it.payload.notAfter) ? [] : [{ i, mail: it.payload }]));
        const send = () =>
          sendEach(
            services.mailer,
            due.map(({ mail: { notAfter: _, ...mail } }) => mail),
          );
        // A mail server elsewhere is waited on without the background turn; the sandbox's capture is this database's work.
        const sent = await (services.mailer.waitsOnUpstream ? lane.offTurn(send) : send());
        due.forEach(({ i }, k) => (answers[i] = sent[k] ?? null));
        return answers;
      },
    },
  });
  services.jobs.register({
    name: OUTBOX_SMS_JOB,
    payload: smsPayload,
    maxAttempts: OUTBOX_MAX_ATTEMPTS,
    backoffMs: OUTBOX_BACKOFF_MS,
    handler: async (sms) => services.sms.send(sms),
  });
}
