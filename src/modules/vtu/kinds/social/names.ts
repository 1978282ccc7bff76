import type { ServiceNames } from '../../../../kernel/notices.js';

/** Its name in the buyer's purchase notices (push, e-mail, SMS; plain data the app may read too), per language. */
export const names: ServiceNames = {
  en: 'Social media boost',
  ha: 'Tallata shafin sada zumunta',
  pcm: 'Boost for social media',
  yo: 'Ìgbéga ojú-ìwé ìkànnì àjọlò',
};
