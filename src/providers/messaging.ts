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
}

export interface SmsSender {
  send(sms: OutboundSms): Promise<void>;
}

/** Production: nodemailer over SMTP_URL. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
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
  return {
    setDown: (value) => void (down = value),
    async send(mail) {
      if (down) throw Object.assign(new Error('connect ECONNREFUSED: the sandbox mail server is down'), { code: 'ECONNECTION' });
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      await db.execute(sql`INSERT INTO sandbox_messages (channel, "to", subject, text, created_at)
                           VALUES ('email', ${mail.to.toLowerCase()}, ${mail.subject}, ${mail.text}, ${clock.now()})`);
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
