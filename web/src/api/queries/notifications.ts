import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** The inbox (pages and the unread count the header shows) and announcements. */
export const notificationsQueries = {
  all: () => ['notifications'] as const,
  unread: () =>
    queryOptions({
      queryKey: [...notificationsQueries.all(), 'unread'],
      queryFn: () => api.listNotifications({ limit: 1 }),
      refetchInterval: 60_000,
    }),
  list: () =>
    infiniteQueryOptions({
      queryKey: [...notificationsQueries.all(), 'list'],
      initialPageParam: 0,
      queryFn: ({ pageParam }) => api.listNotifications({ limit: 20, offset: pageParam }),
      getNextPageParam: (last) => (last.hasMore ? last.offset + last.limit : undefined),
    }),
  broadcasts: () =>
    queryOptions({
      queryKey: [...notificationsQueries.all(), 'broadcasts'],
      queryFn: () => api.listBroadcasts({ limit: 20 }),
    }),
};
