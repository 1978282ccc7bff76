import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Betting', ha: 'Caca (betting)', pcm: 'Betting', yo: 'Tẹ́tẹ́ (betting)' };
