import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { JobQueue, JobRequest } from '../../jobs/queue.js';
import { SECOND, type Clock } from '../../kernel/clock.js';
import { CODE_TEXTS, codeTextsOf } from '../../kernel/code-texts.js';
import type { ServiceNameOf } from '../../kernel/notices.js';
import type { EventBus, Work } from '../../platform/change.js';
import type { Logger } from '../../lib/logger.js';
import type { Mailer, SmsSender } from '../../providers/messaging.js';
import { MAX_PUSH_PAYLOAD_BYTES, type PushSender } from '../../providers/push.js';
import {
  channelExtras,
  DELIVER_JOB,
  FAN_OUT_BATCH,
  type ChannelExtras,
  type NotificationInput,
  type NotificationKind,
} from './notifier.js';
import { liveSession } from './push-subscriptions.js';
import { paramsOf } from './kinds.js';
import { emailFooter, wordNotice } from './wording/index.js';
import { registerOutboxJobs, type Outbox } from './outbox.js';

/**
 * Channel delivery of inbox notifications. emit writes the inbox row and one fan-out job (DELIVER_JOB) in the
 * emitter's transaction, so a rolled-back change never reaches a phone or a mailbox and a money transaction pays
 * one statement per notification. The fan-out job enqueues the channel jobs (push per subscription,
 * e-mail and SMS through the outbox); a slow push service never holds anyone's transaction open.
 */
export const PUSH_JOB = 'notify.push';
export const PUSH_MAX_ATTEMPTS = 5;
export const PUSH_BACKOFF_MS = 30 * SECOND;
/** The fan-out only touches our own database: retry soon, and long enough to ride out a database restart. */
export const DELIVER_MAX_ATTEMPTS = 10;
export const DELIVER_BACKOFF_MS = 5 * SECOND;
/** Fan-out jobs one claim of the delivery lane works through together (each covers up to FAN_OUT_BATCH notifications). */
export const FAN_OUT_JOBS_PER_RUN = 20;

/** A fan-out job's notifications and their channel extras. */
function fanOutOf(
  p: { notificationId: string; extras?: ChannelExtras } | { notificationIds: string[]; extras?: Record<string, ChannelExtras> },
): { ids: string[]; extras: Record<string, ChannelExtras> } {
  if ('notificationIds' in p) return { ids: p.notificationIds, extras: p.extras ?? {} };
  return { ids: [p.notificationId], extras: p.extras ? { [p.notificationId]: p.extras } : {} };
}

export interface ChannelPrefs {
  email: boolean;
  push: boolean;
  sms: boolean;
}

/** Contract defaults (docs/architecture.md "Preferences"): a missing row or key means these. */
export const DEFAULT_CHANNELS: ChannelPrefs = { email: true, push: true, sms: false };

/**
 * Security alerts reach the user by e-mail whatever their preference: the owner must learn of a stranger's login; so
 * do operators' alerts on work that waits too long (issue 44).
 */
export const ALWAYS_EMAIL: ReadonlySet<NotificationKind> = new Set<NotificationKind>(['login_alert', 'operator_alert']);

export async function channelPrefs(exec: Executor, userId: string): Promise<ChannelPrefs> {
  const row = await one<{ prefs: unknown }>(exec, sql`SELECT prefs FROM user_preferences WHERE user_id = ${userId}`);
  return prefsOf(row?.prefs);
}

/** The account `u` by user id, e-mail or verified phone (savedLanguage's and the templates' code texts' condition). */
export const accountMatch = (who: { userId: string } | { email: string } | { phone: string }) =>
  'userId' in who
    ? sql`u.id = ${who.userId}`
    : 'email' in who
      ? sql`u.email = ${who.email.toLowerCase()}`
      : sql`u.phone = ${who.phone} AND u.phone_verified_at IS NOT NULL`;

/**
 * The saved language (settings' `language`) of the account with this user id, e-mail or phone (its verified one), or
 * undefined for an address with no account: the service's own e-mails and SMS (codes) are written in it (issue 43).
 */
export async function savedLanguage(exec: Executor, who: { userId: string } | { email: string } | { phone: string }) {
  const match = accountMatch(who);
  const row = await one<{ prefs: unknown }>(
    exec,
    sql`SELECT p.prefs FROM users u JOIN user_preferences p ON p.user_id = u.id WHERE ${match} AND u.status = 'active' LIMIT 1`,
  );
  return languageOf(row?.prefs);
}

/**
 * The saved language of an account (as savedLanguage) and the admins' wording of the code texts (templates.ts's
 * codeTextsFor, issue 44), in one statement.
 */
export async function codeWording(exec: Executor, who: { userId: string } | { email: string } | { phone: string }) {
  return one<{ language: string | null; overrides: { key: string; language: string; subject: string | null; body: string }[] | null }>(
    exec,
    sql`SELECT (SELECT p.prefs ->> 'language' FROM users u JOIN user_preferences p ON p.user_id = u.id
                WHERE ${accountMatch(who)} AND u.status = 'active' LIMIT 1) AS language,
               (SELECT jsonb_agg(jsonb_build_object('key', t.key, 'language', t.language, 'subject', t.subject, 'body', t.body))
                FROM message_templates t WHERE t.key LIKE 'code.%') AS overrides`,
  );
}

function prefsOf(prefs: unknown): ChannelPrefs {
  const n = (prefs as { notifications?: Partial<Record<keyof ChannelPrefs, unknown>> } | null | undefined)?.notifications;
  const pick = (k: keyof ChannelPrefs) => (typeof n?.[k] === 'boolean' ? (n[k] as boolean) : DEFAULT_CHANNELS[k]);
  return { email: pick('email'), push: pick('push'), sms: pick('sms') };
}

/** The push message the service worker receives (decrypted): small JSON the client can render directly. */
export function pushPayload(notificationId: string, n: NotificationInput, createdAt: Date): string {
  const base = { id: notificationId, kind: n.kind, title: n.title, body: n.body, createdAt: createdAt.toISOString() };
  const full = JSON.stringify(n.data ? { ...base, data: n.data } : base);
  if (Buffer.byteLength(full) <= MAX_PUSH_PAYLOAD_BYTES) return full;
  // Too big for a push message: drop data and shorten the body; the inbox keeps the whole notification.
  return JSON.stringify({ ...base, body: n.body.slice(0, 1000), title: n.title.slice(0, 200), truncated: true });
}

function emailText(n: NotificationInput, emailOnly: string | undefined, language: string | undefined): string {
  // The "this wasn't me" link's label in the reader's language (issue 43).
  const en = `${CODE_TEXTS.en.notMe}: `;
  const extra = emailOnly?.startsWith(en) ? `${codeTextsOf(language).notMe}: ${emailOnly.slice(en.length)}` : emailOnly;
  return `${n.body}${extra ? `\n\n${extra}` : ''}\n\n${emailFooter(language)}`;
}

/** The customer's language preference (settings' `language`), as stored; notifications read English for any other. */
function languageOf(prefs: unknown): string | undefined {
  const l = (prefs as { language?: unknown } | null | undefined)?.language;
  return typeof l === 'string' ? l : undefined;
}

/** The module's subscriber (its entry file lists it). */
export function registerNotifications(services: { events: EventBus }) {
  // A closed account's browsers must stop receiving pushes at once, in the closing transaction.
  services.events.on('account.closed', ({ userId }, change) =>
    change.write((each) => sql`DELETE FROM push_subscriptions WHERE user_id = ${userId}::uuid AND EXISTS (SELECT 1 FROM ${each})`),
  );
}

/** A notification as the fan-out reads it, with its user, preferences, admins' wording and push subscriptions. */
type FanOutRow = {
  id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  data: Record<string, unknown> | null;
  created_at: Date;
  email: string;
  phone: string | null;
  phone_verified_at: Date | null;
  status: string;
  prefs: unknown;
  templates: Record<string, { subject: string | null; body: string }> | null;
  subs: string[] | null;
  ended_subs: string[] | null;
};

/**
 * The fan-out of the notifications one statement emitted (DELIVER_JOB, enqueued by emit in the emitter's
 * transaction): reads them with their users, channel preferences and push subscriptions as they are now (one
 * statement), and enqueues every channel job in one statement, so the fan-out is two round trips however many
 * notifications it covers. Every channel job has a singleton key derived from its notification, so a
 * retried fan-out never enqueues a channel twice.
 */
async function fanOut(
  services: { db: Db; work: Work; outbox: Outbox; clock: Clock; serviceNames: ServiceNameOf },
  notificationIds: readonly string[],
  extras: Readonly<Record<string, ChannelExtras>> = {},
): Promise<void> {
  const { db, work, outbox, clock } = services;
  const now = clock.now();
  const found = await rows<FanOutRow>(
    db,
    sql`SELECT n.id::text AS id, n.user_id::text AS user_id, n.kind, n.title, n.body, n.data, n.created_at,
               u.email, u.phone, u.phone_verified_at, u.status, p.prefs,
               -- The admins' wording of the notices in the reader's language (issue 44; any other language reads English).
               (SELECT jsonb_object_agg(t.key, jsonb_build_object('subject', t.subject, 'body', t.body)) FROM message_templates t
                 WHERE t.key LIKE 'notice.%'
                   AND t.language = CASE WHEN p.prefs ->> 'language' IN ('ha', 'pcm', 'yo') THEN p.prefs ->> 'language' ELSE 'en' END) AS templates,
               (SELECT array_agg(ps.id::text ORDER BY ps.created_at) FROM push_subscriptions ps JOIN sessions s ON s.id = ps.session_id
                 WHERE ps.user_id = u.id AND ${liveSession(now)}) AS subs,
               (SELECT array_agg(ps.id::text) FROM push_subscriptions ps JOIN sessions s ON s.id = ps.session_id
                 WHERE ps.user_id = u.id AND NOT (${liveSession(now)})) AS ended_subs
        FROM notifications n JOIN users u ON u.id = n.user_id LEFT JOIN user_preferences p ON p.user_id = u.id
        WHERE n.id = ANY(${`{${notificationIds.join(',')}}`}::uuid[])`,
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  // Subscriptions of sessions that expired (an ended session's go with it: migration 0501) are removed here.
  const ended = [...new Set(found.flatMap((r) => r.ended_subs ?? []))];
  if (ended.length) await db.execute(sql`DELETE FROM push_subscriptions WHERE id = ANY(${`{${ended.join(',')}}`}::uuid[])`);
  const channelJobs: JobRequest[] = [];
  // In the job's order, so the channel jobs of a batch are queued in the order the notifications were emitted.
  for (const notificationId of notificationIds) {
    const r = byId.get(notificationId);
    // Closed accounts get the inbox row only.
    if (!r || r.status !== 'active') continue;
    // Push, e-mail and SMS in the customer's language, worded from the kind and params (issue 29); the inbox row
    // keeps the English text, which a notification without a wording case is sent in.
    const language = languageOf(r.prefs);
    const worded = wordNotice(
      language,
      { kind: r.kind, title: r.title, body: r.body, params: paramsOf(r.data) },
      services.serviceNames,
      r.templates ?? undefined,
    );
    const n: NotificationInput = { userId: r.user_id, kind: r.kind, ...worded, ...(r.data ? { data: r.data } : {}) };
    const extra = extras[notificationId] ?? {};
    // A notice meant for every channel (extra.everyChannel) overrides the owner's channel preferences.
    const prefs = extra.everyChannel ? { email: true, push: true, sms: true } : prefsOf(r.prefs);
    const subs = prefs.push ? (r.subs ?? []) : [];
    const sms = prefs.sms && r.phone && r.phone_verified_at ? r.phone : null;
    if (subs.length) {
      const payload = pushPayload(notificationId, n, new Date(r.created_at));
      for (const s of subs)
        channelJobs.push({
          name: PUSH_JOB,
          payload: { subscriptionId: s, payload },
          opts: { singletonKey: `push:${notificationId}:${s}` },
        });
    }
    if (prefs.email || ALWAYS_EMAIL.has(n.kind)) {
      channelJobs.push(
        outbox.emailJob(
          { to: r.email, subject: n.title.slice(0, 200), text: emailText(n, extra.emailOnly, language) },
          { dedupeKey: `notification:${notificationId}` },
        ),
      );
    }
    if (sms)
      channelJobs.push(
        outbox.smsJob({ to: sms, text: `${n.title}: ${n.body}`.slice(0, 320) }, { dedupeKey: `notification:${notificationId}` }),
      );
  }
  const change = work.change();
  for (const job of channelJobs) change.enqueue(job.name, job.payload, job.opts);
  await change.commit();
}

/** Job registrar (the notifications module entry): push delivery plus the outbox's mail and SMS jobs. */
/** What push delivery and the outbox jobs need. */
export interface NotificationJobDeps {
  jobs: JobQueue;
  work: Work;
  db: Db;
  push: PushSender;
  clock: Clock;
  log: Logger;
  outbox: Outbox;
  mailer: Mailer;
  sms: SmsSender;
  /** The kinds' names in purchase notices (the VTU module's, wired in by services.ts). */
  serviceNames: ServiceNameOf;
}

export function registerNotificationJobs(services: NotificationJobDeps) {
  registerOutboxJobs(services);
  const { jobs, db, push, clock, log } = services;
  jobs.register({
    name: DELIVER_JOB,
    payload: z.union([
      z.object({ notificationId: z.string().uuid(), extras: channelExtras.optional() }),
      z.object({
        notificationIds: z.array(z.string().uuid()).min(1).max(FAN_OUT_BATCH),
        extras: z.record(z.string().uuid(), channelExtras).optional(),
      }),
    ]),
    maxAttempts: DELIVER_MAX_ATTEMPTS,
    backoffMs: DELIVER_BACKOFF_MS,
    // A retry runs the fan-out again: its channel jobs have keys and go in with one statement, so a retry after a
    // crash between that statement and the job's completion enqueues nothing twice.
    handler: async (p) => {
      const one = fanOutOf(p);
      await fanOut(services, one.ids, one.extras);
    },
    // Worked in batches: the fan-outs of many purchases and transfers at one claim, still two statements in all.
    batch: {
      size: FAN_OUT_JOBS_PER_RUN,
      handler: async (items) => {
        const ids: string[] = [];
        const extras: Record<string, ChannelExtras> = {};
        for (const it of items) {
          const one = fanOutOf(it.payload);
          ids.push(...one.ids);
          Object.assign(extras, one.extras);
        }
        try {
          await fanOut(services, ids, extras);
          return items.map(() => null);
        } catch (err) {
          return items.map(() => err);
        }
      },
    },
  });
  jobs.register({
    name: PUSH_JOB,
    payload: z.object({ subscriptionId: z.string().uuid(), payload: z.string().max(8192) }),
    maxAttempts: PUSH_MAX_ATTEMPTS,
    backoffMs: PUSH_BACKOFF_MS,
    handler: async ({ subscriptionId, payload }) => {
      const sub = await one<{ endpoint: string; p256dh: string; auth: string; live: boolean }>(
        db,
        sql`SELECT ps.endpoint, ps.p256dh, ps.auth, (${liveSession(clock.now())}) AS live
            FROM push_subscriptions ps JOIN sessions s ON s.id = ps.session_id WHERE ps.id = ${subscriptionId}`,
      );
      if (!sub) return; // unsubscribed, removed as gone or ended with its session since the notification was emitted
      if (!sub.live) {
        // Its session expired after the fan-out: it ends now, unsent.
        await db.execute(sql`DELETE FROM push_subscriptions WHERE id = ${subscriptionId}`);
        return;
      }
      const outcome = await push.send(sub, payload);
      switch (outcome.status) {
        case 'delivered':
          await db.execute(sql`UPDATE push_subscriptions SET last_success_at = ${clock.now()} WHERE id = ${subscriptionId}`);
          return;
        case 'gone':
          // RFC 8030 §7.3: 404/410 mean the subscription is over; sending again is pointless.
          await db.execute(sql`DELETE FROM push_subscriptions WHERE id = ${subscriptionId} AND endpoint = ${sub.endpoint}`);
          log.info({ subscriptionId, httpStatus: outcome.httpStatus }, 'push subscription expired; removed');
          return;
        case 'throttled':
          throw Object.assign(
            new Error(`push service throttled (${outcome.httpStatus}); retry after ${Math.ceil(outcome.retryAfterMs / 1000)} s`),
            {
              retryAfterMs: outcome.retryAfterMs,
            },
          );
        case 'failed':
          throw Object.assign(new Error(outcome.message), { permanent: outcome.permanent });
      }
    },
  });
}
