/**
 * Each buyer's price level, kept in memory so a purchase does not spend a statement and a round trip on it.
 *
 * Invalidation, not a timer, keeps it right (as identity's session cache does): a trigger announces the customer on
 * channel `vtu_levels_changed` whenever their row changes (migration 1295), and every instance drops that customer's
 * copy when the message arrives; this instance drops it itself right after its own writes. While the LISTEN
 * connection is down nothing is served from or stored in it, and a generation counter keeps a read that raced an
 * invalidation from being stored.
 */
export const LEVELS_CHANNEL = 'vtu_levels_changed';
export const CUSTOMER_LEVELS_MAX_ENTRIES = 20_000;

export type CustomerLevels = ReturnType<typeof createCustomerLevels>;

export function createCustomerLevels(read: (userId: string) => Promise<string>) {
  const byUser = new Map<string, string>();
  let generation = 0;
  let live: () => boolean = () => false;
  return {
    /** Connects the copies to their invalidation feed (Database.subscribe's live()). */
    attach(isLive: () => boolean) {
      live = isLive;
    },
    /** The customer's level id: the copy when there is one, else read (and kept while the feed is live). */
    async of(userId: string): Promise<string> {
      const hit = live() ? byUser.get(userId) : undefined;
      if (hit !== undefined) return hit;
      const readAt = generation;
      const level = await read(userId);
      if (live() && readAt === generation) {
        if (byUser.size >= CUSTOMER_LEVELS_MAX_ENTRIES) byUser.delete(byUser.keys().next().value!);
        byUser.set(userId, level);
      }
      return level;
    },
    /** Drops one customer's copy ('' drops every copy). */
    forget(userId: string) {
      generation++;
      if (userId) byUser.delete(userId);
      else byUser.clear();
    },
  };
}
