import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { randomDigits, sha256 } from '../../lib/crypto.js';
import { profileOf } from '../identity/api.js';
import { CODE_TTL_MS, type WhatsappDeps } from './deps.js';

/**
 * Linking a WhatsApp number to an account (docs/decisions.md, "WhatsApp"): the customer makes a six-digit code in
 * the app (10 minutes, one use, kept as its SHA-256) and sends "LINK <code>" from the number. A number is linked to
 * one account and an account to one number; a new link replaces the account's old one. The account is told.
 */
type LinkDeps = Pick<WhatsappDeps, 'db' | 'clock' | 'config' | 'work' | 'customers'>;

export const waIdOf = (phone: string) => `234${phone.slice(1)}`;

/** A new code for the caller; their unused codes go. */
export async function createLinkCode({ db, clock, config }: LinkDeps, userId: string) {
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  await db.execute(sql`DELETE FROM whatsapp_link_codes WHERE user_id = ${userId} AND (used_at IS NULL OR expires_at < ${now})`);
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = randomDigits(6);
    const made = await one(
      db,
      sql`INSERT INTO whatsapp_link_codes (code_hash, user_id, expires_at) VALUES (${sha256(`wa-link:${code}`)}, ${userId}, ${expiresAt})
          ON CONFLICT (code_hash) DO NOTHING RETURNING 1 AS x`,
    );
    if (made) return { code, expiresAt: expiresAt.toISOString(), sendTo: config.whatsapp.businessNumber };
  }
  throw new AppError('SERVICE_UNAVAILABLE', 'Could not make a link code now. Try again.');
}

export async function getLink({ db }: LinkDeps, userId: string) {
  const r = await one<{ phone: string; linked_at: Date | string }>(
    db,
    sql`SELECT phone, linked_at FROM whatsapp_links WHERE user_id = ${userId}`,
  );
  return r ? { linked: true, phone: r.phone, linkedAt: new Date(r.linked_at).toISOString() } : { linked: false };
}

export async function unlink({ db }: LinkDeps, userId: string) {
  await db.execute(sql`DELETE FROM whatsapp_links WHERE user_id = ${userId}`);
  return { unlinked: true as const };
}

/** "This wasn't me": the link ends and so does every session of the account. */
export async function endLink(deps: LinkDeps, userId: string) {
  const r = await one<{ phone: string }>(deps.db, sql`DELETE FROM whatsapp_links WHERE user_id = ${userId} RETURNING phone`);
  const { sessionsEnded } = await deps.customers.signOutEverywhere(userId);
  return { ended: true as const, wasLinked: Boolean(r), sessionsEnded };
}

export type LinkOutcome = 'linked' | 'bad_code' | 'taken';

/** "LINK <code>" from a number: the code's account gets the number, once. */
export async function linkByCode({ db, clock, work }: LinkDeps, phone: string, code: string): Promise<LinkOutcome> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const c = await one<{ user_id: string }>(
      tx,
      sql`UPDATE whatsapp_link_codes SET used_at = ${now}
          WHERE code_hash = ${sha256(`wa-link:${code}`)} AND used_at IS NULL AND expires_at > ${now} RETURNING user_id::text AS user_id`,
    );
    if (!c) return 'bad_code';
    const profile = await profileOf(tx, c.user_id);
    if (!profile || profile.status !== 'active') return 'bad_code';
    const owner = await one<{ user_id: string }>(tx, sql`SELECT user_id::text AS user_id FROM whatsapp_links WHERE phone = ${phone}`);
    if (owner && owner.user_id !== c.user_id) return 'taken';
    await tx.execute(sql`DELETE FROM whatsapp_links WHERE user_id = ${c.user_id} OR phone = ${phone}`);
    await tx.execute(sql`INSERT INTO whatsapp_links (phone, user_id, linked_at) VALUES (${phone}, ${c.user_id}, ${now})`);
    await work
      .change(tx)
      .notify({
        userId: c.user_id,
        kind: 'login_alert',
        title: 'WhatsApp linked',
        body: `The WhatsApp number ${phone} is now linked to your wallet. If this wasn't you, open Settings > WhatsApp and tap "This wasn't me".`,
      })
      .commit();
    return 'linked';
  });
}

/** The account a number is linked to, with when; null when it is linked to none. */
export async function linkOf({ db }: Pick<LinkDeps, 'db'>, phone: string) {
  const r = await one<{ user_id: string; linked_at: Date | string }>(
    db,
    sql`SELECT user_id::text AS user_id, linked_at FROM whatsapp_links WHERE phone = ${phone}`,
  );
  return r ? { userId: r.user_id, linkedAt: new Date(r.linked_at) } : null;
}
