import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Airtime', ha: 'Katin waya (airtime)', pcm: 'Airtime', yo: 'Káàdì ìpè (airtime)' };
