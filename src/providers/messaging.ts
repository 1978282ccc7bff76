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

/**
 * Sandbox: nodemailer's JSON transport builds the real message, which is captured in the database so
 * `GET /sandbox/mailbox?to=` shows it on every instance.
 */
export function capturingMailer(db: Db, clock: Clock, from: string): Mailer {
  const transport = nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(mail) {
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
