import { useInfiniteQuery } from '@tanstack/react-query';
import { vtuQueries } from '../../api/queries/vtu';

/**
 * The purchase behind a wallet line, for its token, units and fee on the receipt. The service lists purchases by
 * page, not by reference: the customer's recent ones are searched (a receipt is usually opened soon after buying).
 */
export function usePurchase(reference: string) {
  const recent = useInfiniteQuery({ ...vtuQueries.transactions({}, 100), enabled: reference.startsWith('vtu_') });
  return recent.data?.pages[0]?.items.find((x) => x.reference === reference);
}
