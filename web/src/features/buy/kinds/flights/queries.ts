import { queryOptions } from '@tanstack/react-query';
import { get, post, type PostOutput } from '../../../../api/client';

/** Flights: the airports, one held offer (its current price after a fare change), and the shapes the screens show. */
export type FlightOffer = PostOutput<'/_serverFn/searchFlightsBearerVTU'>['items'][number];
export type FlightView = NonNullable<PostOutput<'/_serverFn/getMyVtuTransactionBearerVTU'>['transaction']['flight']>;

export const flightQueries = {
  all: () => ['vtu', 'flights'] as const,
  airports: () =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'airports'],
      queryFn: () => get('/_serverFn/listFlightAirportsBearerVTU'),
      staleTime: 30 * 60_000,
    }),
  offer: (offerId: string) =>
    queryOptions({
      queryKey: [...flightQueries.all(), 'offer', offerId],
      queryFn: () => post('/_serverFn/getFlightOfferBearerVTU', { offer_id: offerId }),
    }),
};
