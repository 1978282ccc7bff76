import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Data', ha: 'Data', pcm: 'Data', yo: 'Dátà' };
