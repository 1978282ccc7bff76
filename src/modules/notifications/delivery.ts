import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Executor } from '../../db/client.js';
import { SECOND } from '../../lib/clock.js';
import { MAX_PUSH_PAYLOAD_BYTES } from '../../providers/push.js';
import type { Services } from '../../services.js';
import type { NotificationInput, NotificationKind } from './notifier.js';
import { registerOutboxJobs } from './outbox.js';

/**
 * Channel delivery of inbox notifications. The onEmit hook runs inside the emitter's transaction and only
 * enqueues jobs (push per subscription, e-mail and SMS through the outbox), so a rolled-back change never
 * reaches a phone or a mailbox, and a slow push service never holds the emitter's transaction open.
 */
export const PUSH_JOB = 'notify.push';
export const PUSH_MAX_ATTEMPTS = 5;
export const PUSH_BACKOFF_MS = 30 * SECOND;

export interface ChannelPrefs {
  email: boolean;
  push: boolean;
  sms: boolean;
}

/** Contract defaults (docs/architecture.md "Preferences"): a missing row or key means these. */
export const DEFAULT_CHANNELS: ChannelPrefs = { email: true, push: true, sms: false };

/** Security alerts reach the user by e-mail whatever their preference: the owner must learn of a stranger's login. */
export const ALWAYS_EMAIL: ReadonlySet<NotificationKind> = new Set<NotificationKind>(['login_alert']);

export async function channelPrefs(exec: Executor, userId: string): Promise<ChannelPrefs> {
  const row = await one<{ prefs: unknown }>(exec, sql`SELECT prefs FROM user_preferences WHERE user_id = ${userId}`);
  return prefsOf(row?.prefs);
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

function emailText(n: NotificationInput): string {
  return `${n.body}\n\nYou can see all your notifications in the app. To stop these e-mails, turn off e-mail notifications in Settings.`;
}

/** Called from createServices: hooks delivery onto every emitted notification. */
export function registerNotifications(services: Pick<Services, 'notifier' | 'jobs' | 'outbox' | 'clock' | 'events'>) {
  const { notifier, jobs, outbox, clock, events } = services;
  // A closed account's browsers must stop receiving pushes at once, in the closing transaction.
  events.on('account.closed', async (exec, { userId }) => {
    await exec.execute(sql`DELETE FROM push_subscriptions WHERE user_id = ${userId}`);
  });
  notifier.onEmit(async (exec, notificationId, n) => {
    // One round trip for the user, their channel preferences and push subscriptions: this runs inside every
    // money transaction that notifies (issue 11), twice per transfer.
    const user = await one<{ email: string; phone: string | null; phone_verified_at: Date | null; status: string; prefs: unknown; subs: string[] | null }>(
      exec,
      sql`SELECT u.email, u.phone, u.phone_verified_at, u.status, p.prefs,
                 (SELECT array_agg(ps.id::text ORDER BY ps.created_at) FROM push_subscriptions ps WHERE ps.user_id = u.id) AS subs
          FROM users u LEFT JOIN user_preferences p ON p.user_id = u.id WHERE u.id = ${n.userId}`,
    );
    if (!user || user.status !== 'active') return;
    const prefs = prefsOf(user.prefs);
    if (prefs.push) {
      const subs = (user.subs ?? []).map((id) => ({ id }));
      const payload = pushPayload(notificationId, n, clock.now());
      for (const s of subs) await jobs.enqueue(exec, PUSH_JOB, { subscriptionId: s.id, payload }, { singletonKey: `push:${notificationId}:${s.id}` });
    }
    if (prefs.email || ALWAYS_EMAIL.has(n.kind)) {
      await outbox.sendEmail(exec, { to: user.email, subject: n.title.slice(0, 200), text: emailText(n) }, { dedupeKey: `notification:${notificationId}` });
    }
    if (prefs.sms && user.phone && user.phone_verified_at) {
      await outbox.sendSms(exec, { to: user.phone, text: `${n.title}: ${n.body}`.slice(0, 320) }, { dedupeKey: `notification:${notificationId}` });
    }
  });
}

/** Job registrar (moduleJobs): push delivery plus the outbox's mail and SMS jobs. */
export function registerNotificationJobs(services: Services) {
  registerOutboxJobs(services);
  const { jobs, db, push, clock, log } = services;
  jobs.register({
    name: PUSH_JOB,
    payload: z.object({ subscriptionId: z.string().uuid(), payload: z.string().max(8192) }),
    maxAttempts: PUSH_MAX_ATTEMPTS,
    backoffMs: PUSH_BACKOFF_MS,
    handler: async ({ subscriptionId, payload }) => {
      const sub = await one<{ endpoint: string; p256dh: string; auth: string }>(
        db,
        sql`SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE id = ${subscriptionId}`,
      );
      if (!sub) return; // unsubscribed (or removed as gone) since the notification was emitted
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
          throw Object.assign(new Error(`push service throttled (${outcome.httpStatus}); retry after ${Math.ceil(outcome.retryAfterMs / 1000)} s`), {
            retryAfterMs: outcome.retryAfterMs,
          });
        case 'failed':
          throw Object.assign(new Error(outcome.message), { permanent: outcome.permanent });
      }
    },
  });
}
