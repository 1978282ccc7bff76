import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import { runReads } from '../../platform/reads.js';
import { notFound } from '../../kernel/errors.js';
import { toNaira } from '../../kernel/money.js';
import { page } from '../../kernel/paging.js';
import { normalizePhone } from '../../kernel/phone.js';
import { userIdsNamed } from '../identity/api.js';
import { userIdsWithVerifiedName } from '../kyc/api.js';
import { purchaserOf, recentPurchasesRead, type RecentPurchase } from '../vtu/api.js';
import type { CustomerDeps } from './deps.js';
import { freeze, isFrozen, unfreeze } from './freeze.js';

export type CustomerService = ReturnType<typeof createCustomerService>;

type MatchedBy = 'id' | 'email' | 'phone' | 'username' | 'name' | 'reference' | 'account_number';

/** The search's orders, a fixed whitelist (the input names one; its text never reaches the statement). */
export const CUSTOMER_SORTS = ['newest', 'oldest', 'email'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
const CUSTOMER_ORDER: Record<CustomerSort, SQL> = {
  newest: sql`u.created_at DESC, u.id`,
  oldest: sql`u.created_at ASC, u.id`,
  email: sql`u.email ASC, u.id`,
};

/** The customer page's statement, with vtu's read of their last purchases in its round trip (platform/reads.ts runReads). */
async function withRecentPurchases<T>(db: Db, userId: string, statement: SQL): Promise<[T | undefined, RecentPurchase[] | null]> {
  const { first, answers } = await runReads(db, [recentPurchasesRead(userId, 20)], statement);
  return [first[0] as T | undefined, answers[0] as RecentPurchase[] | null];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The most customers one name brings from each owner (a short name's many matches are narrowed by typing more). */
const NAME_HITS = 200;

/**
 * The customers whose profile name or verified KYC name matches the text, as an array literal of their ids (identity's
 * and kyc's look-ups: its beginning or whole words, any case); none for a text with a digit or an @.
 */
async function namedIds(db: Db, text: string): Promise<string> {
  if (/[\d@]/.test(text)) return '{}';
  const name = text.replace(/\s+/g, ' ');
  const ids = new Set([...(await userIdsNamed(db, name, NAME_HITS)), ...(await userIdsWithVerifiedName(db, name, NAME_HITS))]);
  return `{${[...ids].join(',')}}`;
}

/** The customer's row, or NOT_FOUND. */
async function mustExist(db: Db, userId: string) {
  const u = await one<{ id: string; status: string }>(db, sql`SELECT id::text AS id, status FROM users WHERE id = ${userId}`);
  if (!u) throw notFound('Customer');
  return u;
}

/**
 * Look-ups, each on an index (migrations 1020 and 1202): a user id, an e-mail (or its beginning), a phone number, a
 * username, a name (the profile's or the verified KYC name, see namedIds), a top-up, settlement or purchase
 * reference, or a dedicated account number.
 */
async function search({ db }: CustomerDeps, q: string, limit: number, offset: number, sort: CustomerSort = 'newest') {
  const text = q.trim();
  const lower = text.toLowerCase();
  const phone = normalizePhone(text);
  const id = UUID.test(text) ? lower : null;
  // LIKE's own characters are taken literally in the e-mail prefix.
  const prefix = `${lower.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // A purchase reference is vtu's to look up: its customer joins the hits as a value.
  const purchaser = await purchaserOf(db, text);
  // So are the names: identity's and kyc's, their customers joining the hits as values.
  const named = await namedIds(db, text);
  const list = await rows<{
    id: string;
    email: string;
    username: string | null;
    full_name: string | null;
    phone: string | null;
    kyc_tier: number;
    status: string;
    created_at: Date;
    frozen: boolean;
    matched_by: MatchedBy;
  }>(
    db,
    sql`WITH hits AS (
          SELECT id AS user_id, 'id' AS matched_by FROM users WHERE ${id}::uuid IS NOT NULL AND id = ${id}::uuid
          UNION SELECT id, 'email' FROM users WHERE email LIKE ${prefix}
          UNION SELECT id, 'phone' FROM users WHERE ${phone}::text IS NOT NULL AND phone = ${phone}
          UNION SELECT id, 'username' FROM users WHERE username = ${lower}
          UNION SELECT unnest(${named}::uuid[]), 'name'
          UNION SELECT user_id, 'reference' FROM topup_intents WHERE reference = ${text}
          UNION SELECT user_id, 'reference' FROM payment_settlements WHERE processor_reference = ${text}
          UNION SELECT ${purchaser}::uuid, 'reference' WHERE ${purchaser}::uuid IS NOT NULL
          UNION SELECT user_id, 'account_number' FROM dedicated_accounts WHERE account_number = ${text}
        ), firsts AS (SELECT DISTINCT ON (user_id) user_id, matched_by FROM hits ORDER BY user_id, matched_by)
        SELECT u.id::text AS id, u.email, u.username, u.full_name, u.phone, u.kyc_tier, u.status, u.created_at,
               EXISTS (SELECT 1 FROM account_freezes z WHERE z.user_id = u.id) AS frozen, f.matched_by
        FROM firsts f JOIN users u ON u.id = f.user_id
        ORDER BY ${CUSTOMER_ORDER[sort]} LIMIT ${limit + 1} OFFSET ${offset}`,
  );
  return page(
    list.map((r) => ({
      userId: r.id,
      email: r.email,
      username: r.username,
      fullName: r.full_name,
      phone: r.phone,
      kycTier: r.kyc_tier,
      status: r.status,
      frozen: r.frozen,
      matchedBy: r.matched_by,
      createdAt: iso(r.created_at)!,
    })),
    limit,
    offset,
  );
}

/** The customer page's row: each part as JSON. */
type CustomerPageRow = {
  profile: {
    id: string;
    email: string;
    username: string | null;
    full_name: string | null;
    phone: string | null;
    phone_verified: boolean;
    kyc_tier: number;
    status: string;
    created_at: string;
  } | null;
  freeze: { reason: string; frozen_by: string | null; frozen_at: string } | null;
  balance: string | null;
  kyc: { id: string; tier: number; status: string; reason: string | null; created_at: string; reviewed_at: string | null }[] | null;
  ledger: { reference: string; type: string; amount: string; balance_after: string; description: string; created_at: string }[] | null;
  sessions:
    | {
        id: string;
        status: string;
        method: string;
        user_agent: string | null;
        ip: string | null;
        created_at: string;
        expires_at: string;
        revoked_reason: string | null;
      }[]
    | null;
  devices: { id: string; created_at: string; last_used_at: string; expires_at: string }[] | null;
  topups: { reference: string; processor: string; amount: string; status: string; created_at: string }[] | null;
};

/** The customer page's one statement. */
function customerPageStatement(userId: string) {
  return sql`SELECT
      (SELECT json_build_object('id', u.id, 'email', u.email, 'username', u.username, 'full_name', u.full_name, 'phone', u.phone,
              'phone_verified', u.phone_verified_at IS NOT NULL, 'kyc_tier', u.kyc_tier, 'status', u.status, 'created_at', u.created_at)
         FROM users u WHERE u.id = ${userId}) AS profile,
      (SELECT json_build_object('reason', z.reason, 'frozen_by', z.frozen_by, 'frozen_at', z.frozen_at) FROM account_freezes z WHERE z.user_id = ${userId}) AS freeze,
      (SELECT balance::text FROM accounts WHERE user_id = ${userId} AND kind = 'wallet') AS balance,
      (SELECT json_agg(k ORDER BY k.created_at DESC) FROM (
         SELECT id, tier, status, reason, created_at, reviewed_at FROM kyc_submissions WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT 10) k) AS kyc,
      (SELECT json_agg(l ORDER BY l.seq DESC) FROM (
         SELECT e.id AS seq, t.reference, t.type, e.amount::text AS amount, e.balance_after::text AS balance_after, t.description, e.created_at
         FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
         WHERE e.account_id = (SELECT id FROM accounts WHERE user_id = ${userId} AND kind = 'wallet') ORDER BY e.id DESC LIMIT 20) l) AS ledger,
      (SELECT json_agg(s ORDER BY s.created_at DESC) FROM (
         SELECT id, status, method, user_agent, ip, created_at, expires_at, revoked_reason FROM sessions WHERE user_id = ${userId}
         ORDER BY created_at DESC LIMIT 20) s) AS sessions,
      (SELECT json_agg(d ORDER BY d.last_used_at DESC) FROM (
         SELECT id, created_at, last_used_at, expires_at FROM known_devices WHERE user_id = ${userId} ORDER BY last_used_at DESC LIMIT 20) d) AS devices,
      (SELECT json_agg(i ORDER BY i.created_at DESC) FROM (
         SELECT reference, processor, amount::text AS amount, status, created_at FROM topup_intents WHERE user_id = ${userId}
         ORDER BY created_at DESC LIMIT 20) i) AS topups`;
}

function profileView(p: NonNullable<CustomerPageRow['profile']>) {
  return {
    id: p.id,
    email: p.email,
    username: p.username,
    fullName: p.full_name,
    phone: p.phone,
    phoneVerified: p.phone_verified,
    kycTier: p.kyc_tier,
    status: p.status,
    createdAt: iso(p.created_at)!,
  };
}

function kycView(p: NonNullable<CustomerPageRow['profile']>, r: CustomerPageRow) {
  return {
    tier: p.kyc_tier,
    submissions: (r.kyc ?? []).map((k) => ({
      id: k.id,
      tier: k.tier,
      status: k.status,
      reason: k.reason,
      createdAt: iso(k.created_at)!,
      reviewedAt: iso(k.reviewed_at),
    })),
  };
}

function walletView(r: CustomerPageRow) {
  return {
    balance: toNaira(r.balance ?? 0),
    recent: (r.ledger ?? []).map((l) => ({
      reference: l.reference,
      type: l.type,
      amount: toNaira(l.amount),
      balanceAfter: toNaira(l.balance_after),
      description: l.description,
      createdAt: iso(l.created_at)!,
    })),
  };
}

function sessionsView(r: CustomerPageRow) {
  return (r.sessions ?? []).map((s) => ({
    id: s.id,
    status: s.status,
    method: s.method,
    userAgent: s.user_agent,
    ip: s.ip,
    endedReason: s.revoked_reason,
    createdAt: iso(s.created_at)!,
    expiresAt: iso(s.expires_at)!,
  }));
}

function devicesView(r: CustomerPageRow) {
  return (r.devices ?? []).map((d) => ({
    id: d.id,
    createdAt: iso(d.created_at)!,
    lastUsedAt: iso(d.last_used_at)!,
    expiresAt: iso(d.expires_at)!,
  }));
}

function purchasesView(purchases: RecentPurchase[] | null) {
  return (purchases ?? []).map((v) => ({
    id: v.id,
    reference: v.reference,
    service: v.service,
    provider: v.provider,
    recipient: v.recipient,
    amount: toNaira(v.amount),
    status: v.status,
    createdAt: iso(v.created_at)!,
  }));
}

function topupsView(r: CustomerPageRow) {
  return (r.topups ?? []).map((i) => ({
    reference: i.reference,
    processor: i.processor,
    amount: toNaira(i.amount),
    status: i.status,
    createdAt: iso(i.created_at)!,
  }));
}

/**
 * One customer for an operator, in one round trip: profile, KYC submissions, wallet balance and its last ledger
 * lines, sessions and known devices, recent top-ups and whether (why, since when) it is frozen in one statement,
 * and vtu's read of the recent purchases beside it.
 */
async function get({ db }: CustomerDeps, userId: string) {
  const [r, purchases] = await withRecentPurchases<CustomerPageRow>(db, userId, customerPageStatement(userId));
  if (!r?.profile) throw notFound('Customer');
  const p = r.profile;
  return {
    profile: profileView(p),
    frozen: r.freeze !== null,
    freeze: r.freeze && { reason: r.freeze.reason, frozenBy: r.freeze.frozen_by, frozenAt: iso(r.freeze.frozen_at)! },
    kyc: kycView(p, r),
    wallet: walletView(r),
    sessions: sessionsView(r),
    devices: devicesView(r),
    purchases: purchasesView(purchases),
    topups: topupsView(r),
  };
}

/** Ends every active session of the customer (their refresh tokens stop working with them). */
async function signOutEverywhere({ db, forgetUser }: CustomerDeps, userId: string) {
  await mustExist(db, userId);
  const ended = await rows(
    db,
    sql`UPDATE sessions SET status = 'revoked', revoked_reason = 'operator_sign_out' WHERE user_id = ${userId} AND status = 'active' RETURNING id`,
  );
  forgetUser(userId);
  return { userId, sessionsEnded: ended.length };
}

/**
 * The operators' customer look-ups, freeze and sign-out everywhere (issue 30). A frozen customer signs in and reads;
 * the registry refuses every operation declaring `gates.money` (ACCOUNT_FROZEN), and scheduled purchases skip
 * their slots. Freezing and unfreezing tell the customer in the app's inbox.
 */
export function createCustomerService(deps: CustomerDeps) {
  const freezeDeps = { ...deps, mustExist: (userId: string) => mustExist(deps.db, userId) };
  return {
    search: (q: string, limit: number, offset: number, sort?: CustomerSort) => search(deps, q, limit, offset, sort),
    get: (userId: string) => get(deps, userId),
    freeze: (operatorId: string, userId: string, reason: string) => freeze(freezeDeps, operatorId, userId, reason),
    unfreeze: (userId: string) => unfreeze(freezeDeps, userId),
    signOutEverywhere: (userId: string) => signOutEverywhere(deps, userId),
    isFrozen: (userId: string) => isFrozen(freezeDeps, userId),
  };
}
