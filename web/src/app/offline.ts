/**
 * What the offline home shows: the last balance and recent activity, saved after each successful read.
 * Only that: no tokens, no profile, no other answers. Cleared whenever the session ends (auth.tsx forgetSession).
 */
const KEY = 'vtu.offline';

export interface OfflineSnapshot {
  savedAt: string;
  balance: number;
  lockedBonus: number;
  referralLockedBonus: number;
  log: { id: string; type: string; amount: number; description: string; createdAt: string }[];
}

export function saveOffline(s: Omit<OfflineSnapshot, 'savedAt'>) {
  const log = s.log.slice(0, 10).map(({ id, type, amount, description, createdAt }) => ({ id, type, amount, description, createdAt }));
  localStorage.setItem(KEY, JSON.stringify({ ...s, log, savedAt: new Date().toISOString() }));
}

export function readOffline(): OfflineSnapshot | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as OfflineSnapshot) : null;
  } catch {
    return null;
  }
}

export const hasOfflineSnapshot = () => readOffline() !== null;
export const clearOffline = () => localStorage.removeItem(KEY);
