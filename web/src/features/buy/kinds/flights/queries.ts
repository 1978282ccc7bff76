import { queryOptions } from '@tanstack/react-query';
import { type PostOutput } from '../../../../api/client';
import * as ops from '../../../../api/operations';
import * as api from '../../../../api/calls';

/** Flights: the airports, one held offer (its current price after a fare change), and the shapes the screens show. */
export type FlightOffer = PostOutput<typeof ops.searchFlights>['items'][number];
export type FlightView = NonNullable<PostOutput<typeof ops.getMyVtuTransaction>['transaction']['flight']>;

export const flightQueries = {
  all: () => ['vtu', 'flights'] as const,
  airports: () =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'airports'],
      queryFn: () => api.listFlightAirports(),
      staleTime: 30 * 60_000,
    }),
  offer: (offerId: string) =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'offer', offerId],
      queryFn: () => api.getFlightOffer({ offer_id: offerId }),
    }),
};
