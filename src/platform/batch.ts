import { gatherer, type Gathering } from '../db/batches.js';

/**
 * Statements of concurrent requests made as one: a module describes a batch (`max` items, gathered for `waitMs` or
 * one event-loop turn when 0; `keys` that two items of one batch never share; `run`, answering each item's outcome in
 * order) and calls the answer once per item. The platform gathers them (src/db/batches.ts): `run` sees no request's
 * asynchronous context, so what an item needs from its caller must be in the item.
 */
export type Batch<I, O> = Gathering<I, O>;

export function batched<I, O>(batch: Batch<I, O>): (item: I) => Promise<O> {
  return gatherer(batch);
}
