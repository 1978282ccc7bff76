import { z } from 'zod';
import {
  bookFlightInput,
  FLIGHT_CABINS,
  PASSENGER_TITLES,
  searchFlightsInput,
} from '../../../../../../src/modules/vtu/kinds/flights/inputs.js';
import type { KindForms } from '../../../../app/kinds';

/** searchFlights as the search form sends it; bookFlight's travellers and contact (the offer and price come from the
 * chosen offer, the PIN pad confirms). The service's own rules. */
export const flightSearchSchema = searchFlightsInput.safeExtend({
  // An empty return date is a one-way trip.
  return_date: z.preprocess((v: string | undefined) => (v === '' ? undefined : v), searchFlightsInput.shape.return_date),
});
export const flightPassengersSchema = bookFlightInput.pick({ passengers: true, email: true, phone: true });
export { FLIGHT_CABINS, PASSENGER_TITLES };

/** The operation each form fills (web/src/app/kinds.ts KindForms). */
export const forms = (): KindForms => [
  ['searchFlights', flightSearchSchema],
  ['bookFlight', flightPassengersSchema],
];
