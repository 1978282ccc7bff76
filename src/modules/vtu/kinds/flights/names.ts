import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Flight', ha: 'Tikitin jirgin sama', pcm: 'Flight ticket', yo: 'Tíkẹ́ẹ̀tì ọkọ̀ òfurufú' };
