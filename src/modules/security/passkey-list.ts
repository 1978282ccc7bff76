import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import type { PasskeyDeps } from './passkey-deps.js';

/** Whether the user holds a passkey. */
export async function hasPasskey({ db }: PasskeyDeps, userId: string): Promise<boolean> {
  return Boolean(await one(db, sql`SELECT 1 FROM passkeys WHERE user_id = ${userId} LIMIT 1`));
}

/** The user's passkeys, oldest first. */
export async function listPasskeys({ db }: PasskeyDeps, userId: string) {
  const items = await rows<{ id: string; name: string; transports: string[]; created_at: Date; last_used_at: Date | null }>(
    db,
    sql`SELECT id, name, transports, created_at, last_used_at FROM passkeys WHERE user_id = ${userId} ORDER BY created_at`,
  );
  return items.map((p) => ({
    id: p.id,
    name: p.name,
    transports: p.transports,
    createdAt: new Date(p.created_at).toISOString(),
    lastUsedAt: p.last_used_at ? new Date(p.last_used_at).toISOString() : null,
  }));
}

/** Deletes one of the user's passkeys, with its notice. */
export async function removePasskey({ db, notices }: PasskeyDeps, userId: string, id: string) {
  const removed = await db.transaction(async (tx) => {
    const r = await one<{ name: string }>(tx, sql`DELETE FROM passkeys WHERE id = ${id} AND user_id = ${userId} RETURNING name`);
    if (r) await notices.notify(tx, userId, 'passkey_removed', `Its name: ${r.name}.`);
    return r;
  });
  if (!removed) throw new AppError('NOT_FOUND', 'No such passkey');
  return { deleted: true };
}
