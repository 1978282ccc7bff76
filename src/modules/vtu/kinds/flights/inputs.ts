import { z } from 'zod';
import { phoneInput, pinInput, uuidInput } from '../../../../kernel/inputs.js';
import { nairaAmount } from '../../../../kernel/money.js';
import { lower } from '../common-inputs.js';

/** Flights' inputs (issue 32 item 4), zod and the kernel only: the app's search and passenger forms use them too. */
export const FLIGHT_CABINS = ['economy', 'premium_economy', 'business', 'first'] as const;
export const PASSENGER_TITLES = ['mr', 'mrs', 'ms', 'miss', 'master'] as const;
export const PASSENGER_TYPES = ['adult', 'child', 'infant'] as const;
/** The most seats one booking takes (adults and children; infants sit on an adult's lap, one each). */
export const MAX_SEATS = 9;
/** The most a booking may cost, naira. */
export const MAX_FARE = 20_000_000;

const airport = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, `${name} must be a 3-letter airport code (listFlightAirports)`);

const date = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date, YYYY-MM-DD`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      message: `${name} must be a real date`,
    });

const count = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

export const searchFlightsInput = z
  .object({
    origin: airport('origin'),
    destination: airport('destination'),
    departure_date: date('departure_date'),
    return_date: date('return_date').optional(),
    adults: count('adults', 1, MAX_SEATS).default(1),
    children: count('children', 0, MAX_SEATS - 1).default(0),
    infants: count('infants', 0, MAX_SEATS).default(0),
    cabin: lower('cabin', FLIGHT_CABINS).default('economy'),
  })
  .refine((v) => v.origin !== v.destination, { path: ['destination'], message: 'destination must differ from origin' })
  .refine((v) => !v.return_date || v.return_date >= v.departure_date, {
    path: ['return_date'],
    message: 'return_date must not be before departure_date',
  })
  .refine((v) => v.adults + v.children <= MAX_SEATS, {
    path: ['children'],
    message: `adults and children together must be at most ${MAX_SEATS}`,
  })
  .refine((v) => v.infants <= v.adults, { path: ['infants'], message: 'infants must be at most one per adult' });

export type SearchFlightsInput = z.infer<typeof searchFlightsInput>;

const personName = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(40, `${name} is too long`)
    .regex(/^[A-Za-z][A-Za-z' -]*$/, `${name} must be written in letters as on the passport`);

export const passengerInput = z.object({
  title: lower('title', PASSENGER_TITLES),
  first_name: personName('first_name'),
  last_name: personName('last_name'),
  date_of_birth: date('date_of_birth'),
  type: lower('type', PASSENGER_TYPES),
});

export type PassengerInput = z.infer<typeof passengerInput>;

export const offerIdInput = z
  .string({ error: 'offer_id is required' })
  .trim()
  .regex(/^fof_[0-9A-Z]{26}$/, 'offer_id must be an offer id from searchFlights');

export const bookFlightInput = z.object({
  offer_id: offerIdInput,
  passengers: z
    .array(passengerInput, { error: 'passengers must be a list' })
    .min(1, 'passengers must name at least one traveller')
    .max(MAX_SEATS * 2, 'passengers has too many travellers'),
  email: z
    .string({ error: 'email is required' })
    .trim()
    .toLowerCase()
    .max(120, 'email is too long')
    .email('email must be an e-mail address'),
  phone: phoneInput,
  amount: nairaAmount({ max: MAX_FARE }),
  pin: pinInput,
});

export type BookFlightInput = Omit<z.infer<typeof bookFlightInput>, 'pin'>;

export const cancelFlightInput = z.object({ id: uuidInput('id'), pin: pinInput });
