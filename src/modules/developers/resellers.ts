import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { DAY, HOUR, lagosDate } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import { emailsOf, userIdByEmail } from '../identity/api.js';
import { customersAboveBase, usageByKey } from '../vtu/api.js';
import { COLUMNS, today, viewOf, type KeyRow } from './key-rows.js';
import type { ConsoleKey, DevelopersDeps, WebhookHealth } from './deps.js';

/**
 * The console's resellers (issue 45): the customers above the default price level and every customer holding an API
 * key (at any level, live or test), with their level, their keys, each with its mode and purchases by Lagos day, and
 * their webhook endpoints' health, live and test. Test keys and endpoints live in the test world: it answers for its
 * shadow accounts by e-mail (which of them hold keys, their keys and usage, their endpoints' health).
 */

/** How many days of usage the resellers list shows per key. */
export const RESELLER_USAGE_DAYS = 14;
/** The window of a webhook endpoint's failure count. */
const FAILURE_DAYS = 7;

type EndpointHealthRow = {
  id: string;
  user_id: string;
  url: string;
  events: string[];
  status: string;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  last_status: string | null;
  last_response: number | null;
  last_at: Date | string | null;
  failed: number;
  pending: number;
};

/** 00:00 in Lagos (UTC+1) of the Lagos day of `d`. */
export const lagosMidnight = (d: Date) => new Date(Date.parse(`${lagosDate(d)}T00:00:00Z`) - HOUR);

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Each endpoint of these customers with its last delivery and its failed and pending deliveries of the window. */
async function endpointHealth({ db, clock }: DevelopersDeps, userIds: string[]) {
  if (!userIds.length) return [];
  const since = new Date(clock.now().getTime() - FAILURE_DAYS * DAY);
  return rows<EndpointHealthRow>(
    db,
    sql`SELECT e.id, e.user_id::text AS user_id, e.url, e.events, e.status, e.disabled_reason, e.disabled_at,
               last.status AS last_status, last.response_status AS last_response, coalesce(last.last_attempt_at, last.created_at) AS last_at,
               (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'failed' AND d.created_at >= ${since}) AS failed,
               (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending
        FROM webhook_endpoints e
        LEFT JOIN LATERAL (SELECT d.status, d.response_status, d.last_attempt_at, d.created_at FROM webhook_deliveries d
                           WHERE d.endpoint_id = e.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1) last ON true
        WHERE e.user_id = ANY(${`{${userIds.join(',')}}`}::uuid[]) ORDER BY e.created_at, e.id`,
  );
}

/** An endpoint's health as the console shows it, in this world's mode. */
const healthView = (h: EndpointHealthRow, mode: WebhookHealth['mode']): WebhookHealth => ({
  id: h.id,
  mode,
  url: h.url,
  events: h.events,
  status: h.status,
  disabledReason: h.disabled_reason,
  disabledAt: iso(h.disabled_at),
  lastDelivery: h.last_status === null ? null : { status: h.last_status, responseStatus: h.last_response, at: iso(h.last_at) },
  failedLast7Days: h.failed,
  pending: h.pending,
});

/**
 * The test world's side (TestDevelopers.webhookHealth): the endpoints' health of the shadow accounts of these e-mails,
 * each with its e-mail (an e-mail without a shadow account has none).
 */
export async function webhookHealthByEmail(deps: DevelopersDeps, emails: string[]): Promise<(WebhookHealth & { email: string })[]> {
  const owners = await idsByEmail(deps, emails);
  const mode = deps.testWorld ? 'live' : 'test';
  return (await endpointHealth(deps, [...owners.keys()])).map((h) => ({ ...healthView(h, mode), email: owners.get(h.user_id)! }));
}

/** These customers' keys in this world (newest first), each with its usage, and whose it is. */
async function keysOf(deps: DevelopersDeps, userIds: string[]): Promise<(ConsoleKey & { userId: string })[]> {
  if (!userIds.length) return [];
  const { db, clock } = deps;
  const keys = await rows<KeyRow>(
    db,
    sql`SELECT ${COLUMNS} FROM api_keys WHERE user_id = ANY(${`{${userIds.join(',')}}`}::uuid[]) ORDER BY created_at DESC, id DESC`,
  );
  if (!keys.length) return [];
  const now = clock.now();
  const start = lagosMidnight(new Date(now.getTime() - (RESELLER_USAGE_DAYS - 1) * DAY));
  const usage = await usageByKey(db, start, new Date(lagosMidnight(now).getTime() + DAY), { keys: keys.map((k) => k.id) });
  const day = today(deps);
  return keys.map((k) => ({
    ...viewOf(k, day),
    userId: k.user_id,
    usage: usage
      .filter((u) => u.key === k.id)
      .map((u) => ({ day: u.day, purchases: u.purchases, succeeded: u.succeeded, spend: toNaira(u.spend) })),
  }));
}

/** This world's ids of these e-mails' accounts, by e-mail (an e-mail without an account has none). */
async function idsByEmail(deps: DevelopersDeps, emails: string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const email of emails) {
    const id = await userIdByEmail(deps.db, email);
    if (id) owners.set(id, email);
  }
  return owners;
}

/** The test world's side (TestDevelopers.keyHolders): the e-mails of its shadow accounts that hold a key. */
export async function keyHolderEmails(deps: DevelopersDeps): Promise<string[]> {
  const ids = await rows<{ user_id: string }>(deps.db, sql`SELECT DISTINCT user_id::text AS user_id FROM api_keys`);
  return [
    ...(
      await emailsOf(
        deps.db,
        ids.map((r) => r.user_id),
      )
    ).values(),
  ];
}

/** The test world's side (TestDevelopers.consoleKeys): the keys of the shadow accounts of these e-mails, with their e-mail. */
export async function consoleKeysByEmail(deps: DevelopersDeps, emails: string[]): Promise<(ConsoleKey & { email: string })[]> {
  const owners = await idsByEmail(deps, emails);
  return (await keysOf(deps, [...owners.keys()])).map(({ userId, ...k }) => ({ ...k, email: owners.get(userId)! }));
}

/** adminListResellers: a page of customers above the default level or holding a key, each with keys, usage and webhook health. */
export async function listResellers(deps: DevelopersDeps, page: { limit: number; offset: number }) {
  const { db } = deps;
  // A test world not yet built holds no test key: the list does not build it.
  const tw = deps.testWorld?.started() ? await deps.testWorld.developers() : null;
  // Who holds a key: live keys here; test keys in the test world, by the e-mail of their shadow account.
  const [live, test] = await Promise.all([
    rows<{ user_id: string }>(db, sql`SELECT DISTINCT user_id::text AS user_id FROM api_keys`),
    tw ? tw.keyHolders().then((emails) => idsByEmail(deps, emails)) : Promise.resolve(new Map<string, string>()),
  ]);
  const people = await customersAboveBase(db, page.limit, page.offset, [...new Set([...live.map((r) => r.user_id), ...test.keys()])]);
  const ids = people.map((p) => p.user_id);
  const [emails, keys, hooks] = await Promise.all([emailsOf(db, ids), keysOf(deps, ids), endpointHealth(deps, ids)]);
  const pageEmails = [...emails.values()];
  const [testKeys, testHooks] = tw ? await Promise.all([tw.consoleKeys(pageEmails), tw.webhookHealth(pageEmails)]) : [[], []];
  return {
    total: people[0]?.total ?? 0,
    items: people.map((p) => {
      const email = emails.get(p.user_id) ?? '';
      return {
        userId: p.user_id,
        email,
        level: { id: p.level, name: p.level_name, rank: p.rank, source: p.source },
        // Live keys first, then the test world's; each says its mode.
        keys: [
          ...keys.filter((k) => k.userId === p.user_id).map(({ userId: _, ...k }) => k),
          ...testKeys.filter((k) => k.email === email).map(({ email: _, ...k }) => k),
        ],
        // Live endpoints first, then the test world's.
        webhooks: [
          ...hooks.filter((h) => h.user_id === p.user_id).map((h) => healthView(h, 'live')),
          ...testHooks.filter((t) => t.email === email).map(({ email: _, ...t }) => t),
        ],
      };
    }),
  };
}

/**
 * adminSuspendApiKey: suspends (or resumes) any key, live here or test in the test world (a key id not found here is
 * asked of it); answers the key before and after, and whose it is (the live customer's id).
 */
export async function setKeySuspended(deps: DevelopersDeps, actorId: string, keyId: string, suspended: boolean) {
  try {
    return await suspendHere(deps, actorId, keyId, suspended);
  } catch (err) {
    if (!deps.testWorld || !(err instanceof AppError) || err.code !== 'NOT_FOUND') throw err;
    const r = await (await deps.testWorld.developers()).suspendKey(actorId, keyId, suspended);
    const userId = await userIdByEmail(deps.db, r.email);
    return { key: r.key, userId: userId ?? '', wasSuspended: r.wasSuspended };
  }
}

/** The test world's side (TestDevelopers.suspendKey): one of its keys suspended or resumed, with its shadow's e-mail. */
export async function suspendTestKey(deps: DevelopersDeps, actorId: string, keyId: string, suspended: boolean) {
  const r = await suspendHere(deps, actorId, keyId, suspended);
  const email = (await emailsOf(deps.db, [r.userId])).get(r.userId) ?? '';
  return { key: r.key, email, wasSuspended: r.wasSuspended };
}

async function suspendHere(deps: DevelopersDeps, actorId: string, keyId: string, suspended: boolean) {
  const { db, clock } = deps;
  const r = await one<KeyRow & { was: Date | string | null }>(
    db,
    sql`UPDATE api_keys k SET suspended_at = CASE WHEN ${suspended} THEN coalesce(k.suspended_at, ${clock.now()}) END,
          suspended_by = CASE WHEN ${suspended} THEN coalesce(k.suspended_by, ${actorId}::uuid) END
        FROM (SELECT id AS oid, suspended_at AS was FROM api_keys WHERE id = ${keyId} FOR UPDATE) o
        WHERE k.id = o.oid RETURNING ${COLUMNS}, o.was`,
  );
  if (!r) throw notFound('API key');
  return { key: viewOf(r, today(deps)), userId: r.user_id, wasSuspended: r.was !== null };
}
