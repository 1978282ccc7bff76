import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError, NetworkError, onUnauthenticated, setAccessToken } from '../api/client';
import { markDraftForResume } from './draft';
import { clearOffline, hasOfflineSnapshot } from './offline';
import { queryClient } from './query';
import { forgetGrant } from './grant';
import { syncLanguage } from './language-sync';
import { renewPush } from './push';
import { hasSessionHint, SESSION_HINT } from './session-hint';
import * as api from '../api/calls';

/**
 * The session (docs/design.md §13): the access token in memory only, the refresh token in the service's HttpOnly cookie.
 * The app starts by refreshing from the cookie, claims the session for this device, refreshes silently before
 * the access token expires and shows a clear screen when another device took the session over.
 */
export type AuthStatus = 'starting' | 'signedOut' | 'signedIn' | 'superseded' | 'offline';
interface Session {
  accessToken: string;
  expiresIn: number;
  user: { id: string; email: string; username: string | null };
}
interface AuthState {
  status: AuthStatus;
  user: Session['user'] | null;
  /** Why the app signed itself out (the console's idle end, issue 41), for the sign-in screen to say; else null. */
  notice: string | null;
  signedIn(session: Session, method: 'email_otp' | 'login_pin' | 'passkey'): Promise<void>;
  signOut(notice?: string): Promise<void>;
  superseded(): void;
}

const AuthContext = createContext<AuthState | null>(null);
const DEVICE_KEY = 'vtu.device';

export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) localStorage.setItem(DEVICE_KEY, (id = crypto.randomUUID()));
  return id;
}

/**
 * What a browser keeps of an ended session goes with it, however it ended (signed out, superseded by another device,
 * expired or refused on refresh): the access token and grant in memory, the cached answers, the session hint, and
 * the offline snapshot (a balance and recent activity in localStorage, which the next person at this browser must not
 * read). A purchase form open in the tab is kept, to be opened again after the next sign-in.
 */
function forgetSession() {
  setAccessToken(null);
  forgetGrant();
  clearOffline();
  localStorage.removeItem(SESSION_HINT);
  queryClient.clear();
  markDraftForResume();
}

type Refreshed = { ok: true; session: Session } | { ok: false; reason: 'signedOut' | 'superseded' | 'offline' };

async function refreshFromCookie(): Promise<Refreshed> {
  try {
    const { session } = await api.refreshSession({} as never);
    return { ok: true, session };
  } catch (err) {
    if (err instanceof NetworkError) return { ok: false, reason: 'offline' };
    if (err instanceof ApiError && err.code === 'SESSION_SUPERSEDED') return { ok: false, reason: 'superseded' };
    return { ok: false, reason: 'signedOut' };
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  // Without the session hint there is nothing to restore: signed out from the first draw.
  const [status, setStatus] = useState<AuthStatus>(() => (hasSessionHint() ? 'starting' : 'signedOut'));
  const [user, setUser] = useState<Session['user'] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<Promise<boolean> | null>(null);
  // adopt schedules the next refresh and refresh adopts the session it gets: the ref breaks that cycle.
  const refreshRef = useRef<() => Promise<boolean>>(async () => false);

  const adopt = useCallback((session: Session) => {
    setAccessToken(session.accessToken);
    setUser(session.user);
    clearTimeout(timer.current);
    // Silent refresh a minute before the access token expires.
    timer.current = setTimeout(() => void refreshRef.current(), Math.max(10, session.expiresIn - 60) * 1000);
  }, []);

  const refresh = useCallback((): Promise<boolean> => {
    inflight.current ??= refreshFromCookie()
      .then((r) => {
        if (r.ok) {
          adopt(r.session);
          return true;
        }
        if (r.reason !== 'offline') forgetSession();
        else setAccessToken(null);
        if (r.reason === 'superseded') setStatus('superseded');
        else if (r.reason === 'signedOut') setStatus('signedOut');
        return false;
      })
      .finally(() => (inflight.current = null));
    return inflight.current;
  }, [adopt]);
  useEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);

  const superseded = useCallback(() => {
    forgetSession();
    clearTimeout(timer.current);
    setStatus('superseded');
  }, []);

  useEffect(() => {
    onUnauthenticated(refresh);
    // In a task of its own: Preact runs this effect in the task of the app's next stage (Mantine's CSS variables,
    // App.tsx), and building and sending the refresh request was about half of that task on a slow phone (issue 29).
    const start = setTimeout(
      () =>
        void (async () => {
          if (!hasSessionHint()) {
            setStatus('signedOut');
            return;
          }
          const r = await refreshFromCookie();
          if (r.ok) {
            adopt(r.session);
            await claim().catch(() => undefined);
            setStatus('signedIn');
          } else if (r.reason === 'offline') setStatus(hasOfflineSnapshot() ? 'offline' : 'signedOut');
          else {
            forgetSession();
            setStatus(r.reason);
          }
        })(),
      0,
    );
    return () => {
      clearTimeout(start);
      clearTimeout(timer.current);
    };
  }, [adopt, refresh]);

  // The device keeps its claim on the session alive; another device's claim supersedes this one.
  useEffect(() => {
    if (status !== 'signedIn') return;
    const beat = setInterval(() => {
      api.heartbeatSession({ deviceId: deviceId() }).catch((err) => {
        if (err instanceof ApiError && err.code === 'SESSION_SUPERSEDED') superseded();
      });
    }, 60_000);
    return () => clearInterval(beat);
  }, [status, superseded]);

  const value = useMemo<AuthState>(
    () => ({
      status,
      user,
      notice,
      async signedIn(session, method) {
        setNotice(null);
        localStorage.setItem(SESSION_HINT, '1');
        adopt(session);
        await claim();
        api.notifyLogin({ device: navigator.userAgent.slice(0, 200), method }).catch(() => undefined);
        renewPush().catch(() => undefined);
        syncLanguage().catch(() => undefined);
        setStatus('signedIn');
      },
      async signOut(why) {
        await api.signOut({}).catch(() => undefined);
        forgetSession();
        clearTimeout(timer.current);
        setUser(null);
        setNotice(why ?? null);
        setStatus('signedOut');
      },
      superseded,
    }),
    [status, user, notice, adopt, superseded],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

async function claim() {
  await api.claimSession({ deviceId: deviceId(), userAgent: navigator.userAgent.slice(0, 200) });
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
