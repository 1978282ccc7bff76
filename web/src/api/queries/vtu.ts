import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { type GetInput } from '../client';
import * as api from '../calls';

export type TransactionFilter = Pick<
  NonNullable<GetInput<'/_serverFn/listMyVtuTransactionsBearerVTU'>>,
  'status' | 'service' | 'from' | 'to' | 'q'
>;

type Network = 'mtn' | 'airtel' | 'glo' | '9mobile';
/** Catalogues change rarely: five minutes before a screen asks again (a purchase re-reads the price with staleTime 0). */
const CATALOGUE_MS = 5 * 60_000;

/** Purchases: the catalogues a form offers, one purchase, the purchase history; receipts. */
export const vtuQueries = {
  all: () => ['vtu'] as const,
  dataPlans: (network: Network | null) =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'dataPlans', network],
      queryFn: () => api.listDataPlans({ network: network! }),
      enabled: network !== null,
      staleTime: CATALOGUE_MS,
    }),
  cableProviders: () =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'cableProviders'],
      queryFn: () => api.listCableProviders(),
      staleTime: CATALOGUE_MS,
    }),
  cablePlans: (identifier: string) =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'cablePlans', identifier],
      queryFn: () => api.listCablePlans({ identifier }),
      enabled: identifier !== '',
      staleTime: CATALOGUE_MS,
    }),
  discos: () =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'discos'],
      queryFn: () => api.listElectricityPlans(),
      staleTime: CATALOGUE_MS,
    }),
  betCompanies: () =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'betCompanies'],
      queryFn: () => api.listBetCompanies(),
      staleTime: CATALOGUE_MS,
    }),
  examPins: () =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'examPins'],
      queryFn: () => api.listEducationPins(),
      staleTime: CATALOGUE_MS,
    }),
  transaction: (id: string) =>
    queryOptions({
      queryKey: [...vtuQueries.all(), 'transaction', id],
      queryFn: () => api.getMyVtuTransaction({ id }).then((r) => r.transaction),
    }),
  transactions: (filter: TransactionFilter, pageSize: number) =>
    infiniteQueryOptions({
      queryKey: [...vtuQueries.all(), 'transactions', filter, pageSize],
      initialPageParam: 0,
      queryFn: ({ pageParam }) =>
        api.listMyVtuTransactions({
          limit: pageSize,
          offset: pageParam,
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.service ? { service: filter.service } : {}),
          ...(filter.from ? { from: filter.from } : {}),
          ...(filter.to ? { to: filter.to } : {}),
          ...(filter.q?.trim() ? { q: filter.q.trim() } : {}),
        }),
      getNextPageParam: (last) => (last.hasMore ? last.offset + last.limit : undefined),
    }),
};

export const receiptsQueries = {
  all: () => ['receipts'] as const,
  signed: (reference: string) =>
    queryOptions({
      queryKey: [...receiptsQueries.all(), 'signed', reference],
      queryFn: () => api.signReceipt({ reference }),
      staleTime: Infinity,
    }),
  verify: (needle: string) =>
    queryOptions({
      queryKey: [...receiptsQueries.all(), 'verify', needle],
      queryFn: () => api.verifyReceipt({ needle }),
      retry: false,
    }),
  /** The receipt's public verification link as a QR image (made in the browser; the library loads with it). */
  qr: (link: string) =>
    queryOptions({
      queryKey: [...receiptsQueries.all(), 'qr', link],
      queryFn: async () => (await import('qrcode')).toDataURL(link, { margin: 1, width: 220 }),
      enabled: link.length > 0,
      staleTime: Infinity,
    }),
};
