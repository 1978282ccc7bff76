import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Cable TV', ha: 'Talabijin na kebul', pcm: 'Cable TV', yo: 'Tẹlifíṣọ̀n kébù' };
