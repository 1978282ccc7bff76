import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { Clock } from '../kernel/clock.js';

export interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
}

export interface OutboundSms {
  to: string;
  text: string;
}

export interface Mailer {
  send(mail: OutboundEmail): Promise<void>;
  /**
   * Several e-mails at once, where the transport has a cheaper way than one send each (the sandbox's capture: one
   * INSERT). Answers each mail's error, or null when it was sent. Without it the outbox sends them one by one.
   */
  sendMany?(mails: readonly OutboundEmail[]): Promise<unknown[]>;
  /**
   * Its sends wait on a server elsewhere (SMTP), not on this machine's database: the outbox's e-mail lane sends them
   * off its background turn, so a slow mail server does not hold up the fan-out and growth work that share the turn.
   */
  waitsOnUpstream?: boolean;
}

export interface SmsSender {
  send(sms: OutboundSms): Promise<void>;
}

/**
 * How long an SMTP send may wait for the server: seconds, not nodemailer's minutes (2 to connect, 10 on a silent
 * socket), so a server that hangs fails the send, which the outbox retries, instead of holding its lane's batch or a
 * customer's login code. Query parameters of SMTP_URL override them.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Production: nodemailer over SMTP_URL. */
export function smtpMailer(smtpUrl: string, from: string, timeouts = SMTP_TIMEOUTS): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...timeouts });
  return {
    waitsOnUpstream: true,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/** The sandbox's mail server, which can be taken down (POST /sandbox/mail/outage) to try what an SMTP outage does. */
export interface SandboxMailer extends Mailer {
  setDown(down: boolean): void;
}

export const isSandboxMailer = (m: Mailer): m is SandboxMailer => typeof (m as Partial<SandboxMailer>).setDown === 'function';

/**
 * Sandbox: nodemailer's JSON transport builds the real message, which is captured in the database so
 * `GET /sandbox/mailbox?to=` shows it on every instance. While the switch says down (this instance only), every send
 * fails the way an unreachable SMTP server's does.
 */
export function capturingMailer(db: Db, clock: Clock, from: string): SandboxMailer {
  const transport = nodemailer.createTransport({ jsonTransport: true });
  let down = false;
  const outage = () => Object.assign(new Error('connect ECONNREFUSED: the sandbox mail server is down'), { code: 'ECONNECTION' });
  const build = (mail: OutboundEmail) => transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
  /** The captured rows of built mails, in one INSERT however many. */
  const capture = (mails: readonly OutboundEmail[]) =>
    db.execute(sql`INSERT INTO sandbox_messages (channel, "to", subject, text, created_at)
                   SELECT 'email', x."to", x.subject, x.text, ${clock.now()}::timestamptz
                   FROM jsonb_to_recordset(${JSON.stringify(mails.map(({ to, subject, text }) => ({ to: to.toLowerCase(), subject, text })))}::jsonb)
                     AS x("to" text, subject text, text text)`);
  return {
    setDown: (value) => void (down = value),
    async send(mail) {
      if (down) throw outage();
      await build(mail);
      await capture([mail]);
    },
    async sendMany(mails) {
      if (down) return mails.map(() => outage());
      // A mail nodemailer cannot build fails alone; the others are captured together.
      const built = await Promise.all(
        mails.map((m) =>
          build(m).then(
            () => null,
            (err: unknown) => err,
          ),
        ),
      );
      const ok = mails.filter((_, i) => built[i] === null);
      if (ok.length) await capture(ok);
      return built;
    },
  };
}

export function capturingSms(db: Db, clock: Clock): SmsSender {
  return {
    async send(sms) {
      await db.execute(sql`INSERT INTO sandbox_messages (channel, "to", subject, text, created_at)
                           VALUES ('sms', ${sms.to}, NULL, ${sms.text}, ${clock.now()})`);
    },
  };
}
