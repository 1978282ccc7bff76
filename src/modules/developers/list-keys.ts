import { sql } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { COLUMNS, tested, today, viewOf, type KeyRow } from './key-rows.js';
import type { ApiKeyView, DevelopersDeps, TestDevelopers } from './deps.js';

/** The customer's keys, live and (from the test world) test, newest first. */
export async function listKeys(deps: DevelopersDeps, user: Pick<AuthUser, 'id' | 'email'>): Promise<ApiKeyView[]> {
  const { db, testWorld } = deps;
  const list = await rows<KeyRow>(db, sql`SELECT ${COLUMNS} FROM api_keys WHERE user_id = ${user.id} ORDER BY created_at DESC, id DESC`);
  const own = list.map((r) => viewOf(r, today(deps)));
  if (!testWorld) return own;
  const tw = await testWorld.developers();
  const shadowId = await userIdByEmailOrNull(tw, user.email);
  const tests = shadowId ? await tw.listKeys({ id: shadowId, email: user.email }) : [];
  return [...own, ...tests].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/** revokeKey: the key revoked now (a revoked key stays revoked), here or in the test world. */
export async function revokeKey(deps: DevelopersDeps, user: Pick<AuthUser, 'id' | 'email'>, id: string): Promise<ApiKeyView> {
  const { db, clock } = deps;
  const r = await one<KeyRow>(
    db,
    sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${clock.now()})
        WHERE id = ${id} AND user_id = ${user.id} RETURNING ${COLUMNS}`,
  );
  if (r) return viewOf(r, today(deps));
  const tw = await tested(deps);
  return tw.revokeKey({ id: await tw.shadow.idOf(user.email), email: user.email }, id);
}

const userIdByEmailOrNull = (tw: TestDevelopers, email: string) => tw.shadow.idOf(email).catch(() => null);
