import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'data',
  order: 20,
  label: { en: 'Data', ha: 'Data', pcm: 'Data', yo: 'Dátà' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    data: true;
  }
}
