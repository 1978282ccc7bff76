import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Gathers concurrent calls into batches: an item waits at most `waitMs` (0: until the event loop's current turn
 * has run) or until `max` items are gathered, then its batch is run by `run`, which answers each item's outcome
 * in the items' order. Two items sharing a key (`keys`) never go in the same batch: an item whose keys meet an open
 * batch's goes to another one, so a batch may assume its items are independent. Several batches may run at once.
 *
 * `run` is called outside every caller's asynchronous context (no request's AsyncLocalStorage store is visible in
 * it): what an item needs from its caller's context must be in the item.
 */
export interface Gathering<I, O> {
  max: number;
  waitMs: number;
  keys(item: I): readonly string[];
  run(items: I[]): Promise<O[]>;
}

interface Open<I, O> {
  items: I[];
  keys: Set<string>;
  waiters: { resolve(o: O): void; reject(err: unknown): void }[];
  timer?: ReturnType<typeof setTimeout>;
}

/** The context with no store set (taken when this module loads), in which batches run. */
const outside = AsyncLocalStorage.snapshot();

export function gatherer<I, O>(g: Gathering<I, O>): (item: I) => Promise<O> {
  const open: Open<I, O>[] = [];
  const flush = (b: Open<I, O>) => {
    const at = open.indexOf(b);
    if (at < 0) return;
    open.splice(at, 1);
    if (b.timer) clearTimeout(b.timer);
    outside(() => {
      g.run(b.items).then(
        (outcomes) => b.waiters.forEach((w, i) => w.resolve(outcomes[i])),
        (err: unknown) => b.waiters.forEach((w) => w.reject(err)),
      );
    });
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      const keys = g.keys(item);
      let b = open.find((x) => x.items.length < g.max && keys.every((k) => !x.keys.has(k)));
      if (!b) {
        const made: Open<I, O> = { items: [], keys: new Set(), waiters: [] };
        if (g.waitMs > 0) made.timer = setTimeout(() => flush(made), g.waitMs);
        else setImmediate(() => flush(made));
        open.push((b = made));
      }
      b.items.push(item);
      for (const k of keys) b.keys.add(k);
      b.waiters.push({ resolve, reject });
      if (b.items.length >= g.max) flush(b);
    });
}
