import type { Clock } from '../../kernel/clock.js';

/**
 * What authenticate needs of a session and its user, kept in memory so an authenticated request does not spend a
 * database round trip on it (it was one of getWalletState's two).
 *
 * Invalidation, not a timer, keeps it right: a trigger announces the user id on channel `auth_changed` whenever a
 * session's status or expiry, or the user's status, e-mail, username or KYC tier changes (migration 0002), and every
 * instance drops that user's entries when the message arrives. This instance also drops them itself right after its
 * own commits that end sessions (sign-out, refresh reuse, single-device claim, account closure), so the caller's
 * next request never sees a stale entry even before the message lands. While the LISTEN connection is down nothing
 * is served from or stored in the cache. A generation counter keeps a read that raced an invalidation from being
 * stored. MAX_AGE_MS is only a backstop against a lost message, not the mechanism.
 */
export interface SessionState {
  userId: string;
  status: string;
  email: string;
  username: string | null;
  userStatus: string;
  kycTier: number;
  /** A confirmed authenticator (TOTP): the step-up gate needs a grant (migration 0102 announces changes). */
  twoFactor: boolean;
  /** An operator froze the account (migration 1020 announces freezes and unfreezes). */
  frozen: boolean;
  /** The operator roles granted in operator_roles (migration 1000 announces grants and revocations). */
  grantedRoles: readonly string[];
}

export const SESSION_CACHE_MAX_ENTRIES = 50_000;
export const SESSION_CACHE_MAX_AGE_MS = 60_000;

export type SessionCache = ReturnType<typeof createSessionCache>;

export function createSessionCache(clock: Clock, opts: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const maxEntries = opts.maxEntries ?? SESSION_CACHE_MAX_ENTRIES;
  const maxAgeMs = opts.maxAgeMs ?? SESSION_CACHE_MAX_AGE_MS;
  const bySession = new Map<string, { state: SessionState; loadedAt: number }>();
  const byUser = new Map<string, Set<string>>();
  let generation = 0;
  let isLive: () => boolean = () => false;

  const drop = (sessionId: string) => {
    const e = bySession.get(sessionId);
    if (!e) return;
    bySession.delete(sessionId);
    const set = byUser.get(e.state.userId);
    set?.delete(sessionId);
    if (set && set.size === 0) byUser.delete(e.state.userId);
  };

  return {
    /** Connects the cache to its invalidation feed (Database.subscribe's live()). */
    attach(live: () => boolean) {
      isLive = live;
    },
    /** Token of the current generation: take it before reading the database, hand it to put(). */
    generation: () => generation,
    get(sessionId: string): SessionState | null {
      if (!isLive()) return null;
      const e = bySession.get(sessionId);
      if (!e) return null;
      if (clock.now().getTime() - e.loadedAt > maxAgeMs) {
        drop(sessionId);
        return null;
      }
      return e.state;
    },
    put(sessionId: string, state: SessionState, readGeneration: number) {
      if (!isLive() || readGeneration !== generation) return;
      if (bySession.size >= maxEntries) {
        const oldest = bySession.keys().next().value;
        if (oldest !== undefined) drop(oldest);
      }
      drop(sessionId);
      bySession.set(sessionId, { state, loadedAt: clock.now().getTime() });
      let set = byUser.get(state.userId);
      if (!set) byUser.set(state.userId, (set = new Set()));
      set.add(sessionId);
    },
    /** Drops every cached session of a user (a trigger message, or this instance's own commit). */
    forgetUser(userId: string) {
      generation++;
      for (const sid of byUser.get(userId) ?? []) bySession.delete(sid);
      byUser.delete(userId);
    },
    /** Drops everything (messages may have been missed). */
    reset() {
      generation++;
      bySession.clear();
      byUser.clear();
    },
    size: () => bySession.size,
  };
}
