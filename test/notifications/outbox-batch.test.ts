import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, usingPostgres, type Harness } from '../helpers/harness.js';
import { rows } from '../../src/db/client.js';
import { MINUTE } from '../../src/kernel/clock.js';
import { isSandboxMailer, SMTP_TIMEOUTS, smtpMailer, type Mailer, type OutboundEmail } from '../../src/providers/messaging.js';
import {
  OUTBOX_BACKOFF_MS,
  OUTBOX_EMAIL_BATCH,
  OUTBOX_EMAIL_JOB,
  OUTBOX_SEND_CONCURRENCY,
  sendEach,
} from '../../src/modules/notifications/outbox.js';
import { statementsOf } from '../helpers/statements.js';

// The outbox's e-mail queue is worked in batches (a purchase burst leaves one mail per notification): each job keeps
// its own outcome, a mail past its notAfter is dropped, and the sandbox's capture writes a batch in one INSERT.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const enqueue = (mails: (OutboundEmail & { notAfter?: string })[]) =>
  h.app.services.jobs.enqueueMany(
    h.app.services.db,
    mails.map((m) => ({ name: OUTBOX_EMAIL_JOB, payload: m })),
  );
const captured = async (prefix: string) =>
  rows<{ to: string; subject: string }>(
    h.app.services.db,
    sql`SELECT "to", subject FROM sandbox_messages WHERE channel = 'email' AND subject LIKE ${`${prefix}%`} ORDER BY id`,
  );
const jobsOf = async (prefix: string) =>
  rows<{ status: string; attempts: number; last_error: string | null }>(
    h.app.services.db,
    sql`SELECT status, attempts, last_error FROM jobs WHERE queue = ${OUTBOX_EMAIL_JOB} AND payload->>'subject' LIKE ${`${prefix}%`} ORDER BY id`,
  );

describe('the outbox e-mail lane', () => {
  it('sends more than a batch of mails, drops the one past its notAfter, and marks every job done', async () => {
    const n = OUTBOX_EMAIL_BATCH + 5;
    const past = new Date(h.clock.now().getTime() - MINUTE).toISOString();
    await enqueue(
      Array.from({ length: n }, (_, i) => ({
        to: `Batch${i}@Example.com`,
        subject: `batch ${i}`,
        text: 'hello',
        ...(i === 3 ? { notAfter: past } : {}),
      })),
    );
    await h.app.services.jobs.drain();
    const got = await captured('batch ');
    expect(got).toHaveLength(n - 1);
    expect(got.map((m) => m.subject)).not.toContain('batch 3');
    expect(got[0]).toEqual({ to: 'batch0@example.com', subject: 'batch 0' });
    expect((await jobsOf('batch ')).map((j) => j.status)).toEqual(Array.from({ length: n }, () => 'done'));
  });

  it.runIf(usingPostgres)(
    'captures a batch in the sandbox with one INSERT, and claims and completes it with one statement each',
    async () => {
      await enqueue(Array.from({ length: 10 }, (_, i) => ({ to: `one${i}@example.com`, subject: `one ${i}`, text: 'x' })));
      const texts = await statementsOf(() => h.app.services.jobs.drain());
      expect(texts.filter((t) => t.includes('INSERT INTO sandbox_messages'))).toHaveLength(1);
      expect(texts.filter((t) => /UPDATE jobs SET status = 'done'/.test(t))).toHaveLength(1);
      expect(await captured('one ')).toHaveLength(10);
    },
  );

  it('fails every job of a batch while the mail server is down, and sends them on the retry', async () => {
    const mailer = h.app.services.mailer;
    if (!isSandboxMailer(mailer)) throw new Error('the harness uses the sandbox mailer');
    await enqueue([
      { to: 'down1@example.com', subject: 'down 1', text: 'x' },
      { to: 'down2@example.com', subject: 'down 2', text: 'x' },
    ]);
    mailer.setDown(true);
    try {
      await h.app.services.jobs.drain();
    } finally {
      mailer.setDown(false);
    }
    const failed = await jobsOf('down ');
    expect(failed.map((j) => [j.status, j.attempts])).toEqual([
      ['queued', 1],
      ['queued', 1],
    ]);
    expect(failed[0].last_error).toMatch(/mail server is down/);
    expect(await captured('down ')).toHaveLength(0);
    h.clock.advance(OUTBOX_BACKOFF_MS);
    await h.app.services.jobs.drain();
    expect((await jobsOf('down ')).map((j) => j.status)).toEqual(['done', 'done']);
    expect(await captured('down ')).toHaveLength(2);
  });
});

describe('sendEach without a batch send (SMTP)', () => {
  it('answers each mail its own outcome and keeps at most OUTBOX_SEND_CONCURRENCY in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const sent: string[] = [];
    const smtp: Mailer = {
      async send(mail) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        if (mail.to.startsWith('bounce')) throw new Error('SMTP 550 no such user');
        sent.push(mail.to);
      },
    };
    const mails = Array.from({ length: 20 }, (_, i) => ({
      to: i === 7 ? 'bounce@example.com' : `m${i}@example.com`,
      subject: 's',
      text: 't',
    }));
    const answers = await sendEach(smtp, mails);
    expect(answers.map((a) => (a === null ? null : (a as Error).message))).toEqual(
      mails.map((m) => (m.to.startsWith('bounce') ? 'SMTP 550 no such user' : null)),
    );
    expect(sent).toHaveLength(19);
    expect(most).toBe(OUTBOX_SEND_CONCURRENCY);
  });
});

describe('the SMTP mailer', () => {
  it('gives up on a server that accepts the connection and never answers, within its timeouts', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'test@example.com', {
        connectionTimeout: 300,
        greetingTimeout: 300,
        socketTimeout: 300,
      });
      const started = Date.now();
      await expect(mailer.send({ to: 'someone@example.com', subject: 's', text: 't' })).rejects.toThrow(/greeting never received|timeout/i);
      // nodemailer's own greeting timeout is 30 s: ours applied.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
    expect(SMTP_TIMEOUTS.socketTimeout).toBeLessThanOrEqual(60_000);
  });
});
