import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = { en: 'Exam PINs', ha: 'PIN na jarrabawa', pcm: 'Exam PIN dem', yo: 'PIN ìdánwò' };
