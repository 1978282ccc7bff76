import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'airtimeCash',
  order: 90,
  label: { en: 'Airtime to cash', ha: 'Kati zuwa kuɗi', pcm: 'Airtime to cash', yo: 'Káàdì ìpè sí owó' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    airtimeCash: true;
  }
}
