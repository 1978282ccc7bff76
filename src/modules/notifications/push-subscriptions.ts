import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import type { Config } from '../../config.js';

import type { Clock } from '../../kernel/clock.js';

import { uuid } from '../../kernel/ids.js';

import { hostAllowed, NotPublicError, resolvePublic, type Resolver } from '../../lib/public-address.js';

import { AppError, notFound } from '../../kernel/errors.js';

import { iso } from './rows.js';

/** Subscriptions kept per user; the oldest goes when a new browser subscribes past the cap. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

// Push services live on the public internet; a subscription must not turn the job worker into a proxy to
// private addresses (SSRF). The host is resolved and every address must be public
// (src/lib/public-address.ts); delivery checks again and connects to the checked address (providers/push.ts).
// Loopback names over http are allowed only in the sandbox, for local push test servers.
export const SANDBOX_LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export async function checkPushEndpoint(
  endpoint: string,
  opts: { sandbox: boolean; allowedHosts?: string[]; resolver?: Resolver },
): Promise<string> {
  const fail = (message: string) => new AppError('VALIDATION_FAILED', `endpoint: ${message}`, { issues: [{ path: 'endpoint', message }] });
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw fail('must be an absolute URL');
  }
  if (url.username || url.password) throw fail('must not carry credentials');
  const host = url.hostname.toLowerCase();
  if (opts.sandbox && SANDBOX_LOOPBACK_NAMES.has(host) && (url.protocol === 'http:' || url.protocol === 'https:')) return url.toString();
  if (url.protocol !== 'https:')
    throw fail(opts.sandbox ? 'must use https (http is accepted only for localhost in the sandbox)' : 'must use https');
  if (!hostAllowed(host, opts.allowedHosts ?? [])) throw fail('must be on a push service this operator allows (PUSH_ALLOWED_HOSTS)');
  try {
    await resolvePublic(host, opts.resolver);
  } catch (err) {
    if (err instanceof NotPublicError) throw fail('must be a public push service address');
    throw err;
  }
  return url.toString();
}

/** A session that can still receive pushes: active and not past its absolute expiry (alias `s`). */
export const liveSession = (now: Date) => sql`s.status = 'active' AND s.expires_at > ${now}`;

/** Web push subscriptions: endpoints checked public when saved (and again at delivery), at most MAX_PUSH_SUBSCRIPTIONS each. */
export function createPushSubscriptions({ db, clock, config, resolver }: { db: Db; clock: Clock; config: Config; resolver?: Resolver }) {
  return {
    // ---- web push subscriptions ----
    /**
     * Issue 28: the subscription belongs to the caller's session and ends with it (migration 0501), so one planted
     * with a stolen token ends when that token's session does. An endpoint another account registered from a live
     * session is refused, never moved: moving it handed that account's queued notices to the new keys. The
     * browser then subscribes afresh (a new endpoint).
     */
    async savePushSubscription(user: { id: string; sessionId: string | null }, input: { endpoint: string; p256dh: string; auth: string }) {
      if (!user.sessionId)
        throw new AppError('BAD_REQUEST', 'Push subscriptions need a session of this service (sign in with an e-mail code or PIN)');
      const endpoint = await checkPushEndpoint(input.endpoint, {
        sandbox: config.sandbox,
        allowedHosts: config.pushAllowedHosts,
        resolver,
      });
      const now = clock.now();
      return db.transaction(async (tx) => {
        // Another account's row whose session has expired no longer counts.
        await tx.execute(sql`DELETE FROM push_subscriptions ps WHERE ps.endpoint = ${endpoint} AND ps.user_id <> ${user.id}
                               AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = ps.session_id AND ${liveSession(now)})`);
        // The same account from another of its sessions (signed in again in this browser): the row follows the newest session.
        const r = await one<{ id: string; endpoint: string; created_at: Date }>(
          tx,
          sql`INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, created_at)
              VALUES (${uuid()}, ${user.id}, ${user.sessionId}, ${endpoint}, ${input.p256dh}, ${input.auth}, ${now})
              ON CONFLICT (endpoint) DO UPDATE SET session_id = EXCLUDED.session_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth
              WHERE push_subscriptions.user_id = EXCLUDED.user_id
              RETURNING id, endpoint, created_at`,
        );
        if (!r)
          throw new AppError(
            'CONFLICT',
            'This push endpoint is registered to another account; unsubscribe in the browser and subscribe again',
          );
        await tx.execute(sql`DELETE FROM push_subscriptions WHERE id IN (
                               SELECT id FROM push_subscriptions WHERE user_id = ${user.id}
                               ORDER BY created_at DESC, id DESC OFFSET ${MAX_PUSH_SUBSCRIPTIONS})`);
        return { subscription: { id: r.id, endpoint: r.endpoint, createdAt: iso(r.created_at)! } };
      });
    },

    async deletePushSubscription(userId: string, endpoint: string) {
      let normalized = endpoint;
      try {
        normalized = new URL(endpoint).toString();
      } catch {
        /* not a URL: cannot match any stored endpoint */
      }
      const r = await rows(
        db,
        sql`DELETE FROM push_subscriptions WHERE user_id = ${userId} AND endpoint IN (${endpoint}, ${normalized}) RETURNING id`,
      );
      if (!r.length) throw notFound('Push subscription');
      return { deleted: true };
    },
  };
}
