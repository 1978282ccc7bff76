import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'betting',
  order: 50,
  label: { en: 'Betting', ha: 'Caca (betting)', pcm: 'Betting', yo: 'Tẹ́tẹ́ (betting)' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    betting: true;
  }
}
