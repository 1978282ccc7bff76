import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'flights',
  order: 100,
  label: { en: 'Flights', ha: 'Jiragen sama', pcm: 'Flight', yo: 'Ọkọ̀ òfurufú' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    flights: true;
  }
}
