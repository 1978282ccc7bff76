import { pcmAirtimeCash } from './airtime-cash-pcm';
import { pcmFlights } from './flights-pcm';
import { pcmTravel } from './travel-pcm';
import type { KindMessages } from './kinds-en';

/**
 * The strings of the buy screens of issue 32's kinds (airtime-to-cash, travel eSIMs, social services, flights): a
 * chunk of their own, loaded with the buy screen (app/i18n.ts `loadKindStrings`), so the first screens do not carry
 * them. Same keys in every language (web/src/app/i18n.test.ts).
 */
export const pcmKinds: KindMessages = { ...pcmAirtimeCash, ...pcmTravel, ...pcmFlights };
