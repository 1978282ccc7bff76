import { AsyncLocalStorage } from 'node:async_hooks';
import type { Executor } from '../db/client.js';

/**
 * Lets a request's Idempotency-Key claim learn, inside the money transaction itself, that money moved
 * (src/http/idempotency.ts). The ledger calls markEffect(tx) on every posting; outside an idempotent request it
 * does nothing. A process killed between that commit and storing the answer leaves the claim marked
 * "committed", so a retry with the same key is refused instead of moving the money a second time.
 */
type Marker = (tx: Executor) => Promise<void>;

const scope = new AsyncLocalStorage<Marker>();

export function withEffectMarker<T>(marker: Marker, fn: () => Promise<T>): Promise<T> {
  return scope.run(marker, fn);
}

export async function markEffect(tx: Executor): Promise<void> {
  const marker = scope.getStore();
  if (marker) await marker(tx);
}
