import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onWrite } from '../api/client';
import { adminQueries } from '../api/queries/admin';
import { isAutomatic } from './activity';

/**
 * Every console read shown again after a change (issue 44): who is signed in aside, every admin answer is marked
 * stale, and the ones on screen are asked again at once, so a settled top-up, a decided approval or a new reply shows
 * without a reload. Staff must never read an old status to a customer.
 */
export const refreshConsole = (qc: QueryClient) =>
  qc.invalidateQueries({ queryKey: adminQueries.all(), predicate: (q) => q.queryKey[1] !== 'me' });

/**
 * After each write the service accepts, for as long as the console is open; the session's own heartbeat and refresh
 * are writes that change nothing shown, so they ask nothing again (else every minute would refetch every screen, and
 * the first of those reads would report a person's action in the place of the console's own report, activity.ts).
 */
export function useFreshAfterWrites() {
  const qc = useQueryClient();
  useEffect(() => {
    onWrite((path) => {
      if (!isAutomatic(path)) void refreshConsole(qc);
    });
    return () => onWrite(null);
  }, [qc]);
}
