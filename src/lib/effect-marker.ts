import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import type { Part } from '../db/parts.js';

/**
 * Lets a request's Idempotency-Key claim learn, inside the money transaction itself, that money moved
 * (src/http/idempotency.ts). The ledger marks the claim with every posting; outside an idempotent request it
 * does nothing. A process killed between that commit and storing the answer leaves the claim marked
 * "committed", so a retry with the same key is refused instead of moving the money a second time.
 */
export interface EffectMarker {
  /** The marking UPDATE, applied only where `guard` (an SQL boolean) holds: the ledger embeds it in its posting. */
  statement(guard: SQL): SQL;
}

const scope = new AsyncLocalStorage<EffectMarker>();

export function withEffectMarker<T>(marker: EffectMarker, fn: () => Promise<T>): Promise<T> {
  return scope.run(marker, fn);
}

/** The marker of the idempotent request this code runs in, if any. */
export function currentEffectMarker(): EffectMarker | undefined {
  return scope.getStore();
}

/**
 * The mark as a part of a posting (its own statement in the posting's round trip), written only if the posting is
 * made; null outside an idempotent request.
 */
export function effectPart(): Part | null {
  const marker = scope.getStore();
  return marker
    ? { ctes: (when, name) => sql`${name('effect')} AS (${marker.statement(sql`EXISTS (SELECT 1 FROM ${when})`)} RETURNING 1)` }
    : null;
}

export async function markEffect(tx: Executor): Promise<void> {
  const marker = scope.getStore();
  if (marker) await tx.execute(marker.statement(sql`true`));
}
