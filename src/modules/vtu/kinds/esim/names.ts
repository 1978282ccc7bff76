import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Travel eSIM', ha: 'eSIM na tafiya', pcm: 'eSIM for travel', yo: 'eSIM ìrìnàjò' };
