import { queryOptions } from '@tanstack/react-query';
import { get, post, type PostOutput } from '../../../../api/client';
import * as ops from '../../../../api/operations';

/** Flights: the airports, one held offer (its current price after a fare change), and the shapes the screens show. */
export type FlightOffer = PostOutput<typeof ops.searchFlights>['items'][number];
export type FlightView = NonNullable<PostOutput<typeof ops.getMyVtuTransaction>['transaction']['flight']>;

export const flightQueries = {
  all: () => ['vtu', 'flights'] as const,
  airports: () =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'airports'],
      queryFn: () => get(ops.listFlightAirports),
      staleTime: 30 * 60_000,
    }),
  offer: (offerId: string) =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'offer', offerId],
      queryFn: () => post(ops.getFlightOffer, { offer_id: offerId }),
    }),
};
