import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';

/**
 * The users table as other modules change and read it: identity is its one writer (docs/architecture.md, "Who owns
 * each table"). Each function is the one statement its caller used to write itself, on the caller's executor, so a
 * change that must commit with the caller's own (a KYC decision, an account closure) is made in its transaction.
 */

/** Locks the user's row for the caller's transaction (serialises changes to one customer's account). */
export async function lockUser(exec: Executor, userId: string): Promise<void> {
  await exec.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
}

/** An approved KYC tier: never lowers the tier the user holds. */
export async function setTier(exec: Executor, userId: string, tier: number, now: Date): Promise<void> {
  await exec.execute(sql`UPDATE users SET kyc_tier = GREATEST(kyc_tier, ${tier}), updated_at = ${now} WHERE id = ${userId}`);
}

/** The name a KYC submission gave, kept only while the profile has none. */
export async function fillFullName(exec: Executor, userId: string, fullName: string, now: Date): Promise<void> {
  await exec.execute(sql`UPDATE users SET full_name = ${fullName}, updated_at = ${now} WHERE id = ${userId} AND full_name IS NULL`);
}

/** A phone the user just proved: it becomes theirs, verified, and stops counting as verified on any other account. */
export async function setPhone(exec: Executor, userId: string, phone: string, now: Date): Promise<void> {
  await exec.execute(sql`UPDATE users SET phone_verified_at = NULL, updated_at = ${now}
                         WHERE phone = ${phone} AND id <> ${userId} AND phone_verified_at IS NOT NULL`);
  await exec.execute(sql`UPDATE users SET phone = ${phone}, phone_verified_at = ${now}, updated_at = ${now} WHERE id = ${userId}`);
}

/**
 * Test mode's shadow account takes its live customer's username (issue 45): the live world keeps usernames unique, so
 * an account here still holding it (a customer who has since renamed) gives it up first. Run in one transaction;
 * answers the accounts that gave it up (their cached state is stale).
 */
export async function takeUsername(exec: Executor, userId: string, username: string, now: Date): Promise<string[]> {
  const gave = await rows<{ id: string }>(
    exec,
    sql`UPDATE users SET username = NULL, updated_at = ${now} WHERE username = ${username} AND id <> ${userId} RETURNING id::text AS id`,
  );
  await exec.execute(sql`UPDATE users SET username = ${username}, updated_at = ${now} WHERE id = ${userId}`);
  return gave.map((r) => r.id);
}

/** Account closure: the profile's personal data goes, the row (and the money records pointing at it) stays. */
export async function scrub(exec: Executor, userId: string, now: Date): Promise<void> {
  await exec.execute(sql`UPDATE users SET email = ${`closed+${userId}@closed.invalid`}, username = NULL, full_name = NULL,
                           phone = NULL, phone_verified_at = NULL, status = 'closed', updated_at = ${now}
                         WHERE id = ${userId}`);
}

/** Whether the user holds a verified phone other than `phone` (replacing it is a credential change). */
export async function hasOtherVerifiedPhone(exec: Executor, userId: string, phone: string): Promise<boolean> {
  return Boolean(
    await one(exec, sql`SELECT 1 FROM users WHERE id = ${userId} AND phone_verified_at IS NOT NULL AND phone IS DISTINCT FROM ${phone}`),
  );
}

/** Whether `phone` is the user's verified phone. */
export async function hasVerifiedPhone(exec: Executor, userId: string, phone: string): Promise<boolean> {
  return Boolean(await one(exec, sql`SELECT 1 FROM users WHERE id = ${userId} AND phone = ${phone} AND phone_verified_at IS NOT NULL`));
}

/** The user with this e-mail (as stored: lower-case), or null. On users_email_key. */
export async function userIdByEmail(exec: Executor, email: string): Promise<string | null> {
  return (await one<{ id: string }>(exec, sql`SELECT id::text AS id FROM users WHERE email = ${email}`))?.id ?? null;
}

/** The e-mails of users by id, in one statement (ids not found are absent). */
export async function emailsOf(exec: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const list = await rows<{ id: string; email: string }>(
    exec,
    sql`SELECT id::text AS id, email FROM users WHERE id = ANY(${`{${[...new Set(ids)].join(',')}}`}::uuid[])`,
  );
  return new Map(list.map((u) => [u.id, u.email]));
}

/** The user's verified phone, or null. */
export async function verifiedPhoneOf(exec: Executor, userId: string): Promise<string | null> {
  const r = await one<{ phone: string }>(
    exec,
    sql`SELECT phone FROM users WHERE id = ${userId} AND phone IS NOT NULL AND phone_verified_at IS NOT NULL`,
  );
  return r?.phone ?? null;
}

/** The account whose verified phone this is (USSD and WhatsApp callers), or null: active or not, tier, when verified. */
export interface PhoneOwner {
  id: string;
  status: string;
  kycTier: number;
  phoneVerifiedAt: Date;
}

export async function ownerOfVerifiedPhone(exec: Executor, phone: string): Promise<PhoneOwner | null> {
  const r = await one<{ id: string; status: string; kyc_tier: number; phone_verified_at: Date | string }>(
    exec,
    sql`SELECT id::text AS id, status, kyc_tier, phone_verified_at FROM users WHERE phone = ${phone} AND phone_verified_at IS NOT NULL
        ORDER BY phone_verified_at DESC LIMIT 1`,
  );
  return r ? { id: r.id, status: r.status, kycTier: r.kyc_tier, phoneVerifiedAt: new Date(r.phone_verified_at) } : null;
}

/** A user's profile as other modules use it (null: no such user). */
export interface UserProfile {
  email: string;
  username: string | null;
  fullName: string | null;
  phone: string | null;
  status: string;
  kycTier: number;
  createdAt: Date;
}

export async function profileOf(exec: Executor, userId: string): Promise<UserProfile | null> {
  const u = await one<{
    email: string;
    username: string | null;
    full_name: string | null;
    phone: string | null;
    status: string;
    kyc_tier: number;
    created_at: Date | string;
  }>(exec, sql`SELECT email, username, full_name, phone, status, kyc_tier, created_at FROM users WHERE id = ${userId}`);
  if (!u) return null;
  const { full_name: fullName, kyc_tier: kycTier, created_at: createdAt, ...rest } = u;
  return { ...rest, fullName, kycTier, createdAt: new Date(createdAt) };
}

/** The e-mail and username of users by id, in one statement (ids not found are absent). */
export async function contactsOf(exec: Executor, ids: readonly string[]): Promise<Map<string, { email: string; username: string | null }>> {
  if (!ids.length) return new Map();
  const list = await rows<{ id: string; email: string; username: string | null }>(
    exec,
    sql`SELECT id::text AS id, email, username FROM users WHERE id = ANY(${`{${[...new Set(ids)].join(',')}}`}::uuid[])`,
  );
  return new Map(list.map((u) => [u.id, { email: u.email, username: u.username }]));
}
