import { enAirtimeCash } from './airtime-cash-en';
import { enFlights } from './flights-en';
import { enTravel } from './travel-en';

/**
 * The strings of the buy screens of issue 32's kinds (airtime-to-cash, travel eSIMs, social services, flights): a
 * chunk of their own, loaded with the buy screen (app/i18n.ts `loadKindStrings`), so the first screens do not carry
 * them. Same keys in every language (web/src/app/i18n.test.ts).
 */
export const enKinds = { ...enAirtimeCash, ...enTravel, ...enFlights };

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
export type KindMessages = Strings<typeof enKinds>;
