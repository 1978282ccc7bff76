import { useEffect } from 'react';
import { adminQueries } from '../api/queries/admin';
import { useAuth } from '../app/auth';
import { queryClient } from '../app/query';
import { hasUnreportedActivity, lastPersonActivity } from './activity';

/** How soon the service hears of an action that made no request of its own (typing a long note). */
const REPORT_MS = 60_000;

export const idleNotice = (minutes: number) => `You were signed out after ${minutes} minute${minutes === 1 ? '' : 's'} without activity.`;

/**
 * Issue 41: the console signs itself out after the operator's OPERATOR_IDLE_MINUTES (the profile's
 * operatorIdleMinutes) without the person's own actions (activity.ts), whatever the tab's timers and background
 * fetches do, and the sign-in screen says why. An action that made no request is reported within a minute (the
 * profile read again, unmarked), so the service, whose idle clock moves only on a person's requests, does not end the
 * session before the console does.
 */
export function useIdleSignOut(idleMinutes: number | null | undefined) {
  const { signOut } = useAuth();
  useEffect(() => {
    if (!idleMinutes) return;
    const limit = idleMinutes * 60_000;
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      const left = lastPersonActivity() + limit - Date.now();
      if (left <= 0) return void signOut(idleNotice(idleMinutes));
      if (hasUnreportedActivity()) void queryClient.refetchQueries({ queryKey: adminQueries.me().queryKey });
      timer = setTimeout(check, Math.min(left, REPORT_MS));
    };
    timer = setTimeout(check, Math.min(limit, REPORT_MS));
    return () => clearTimeout(timer);
  }, [idleMinutes, signOut]);
}
