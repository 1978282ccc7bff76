import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'esim',
  order: 70,
  label: { en: 'Travel eSIM', ha: 'eSIM na tafiya', pcm: 'Travel eSIM', yo: 'eSIM ìrìn àjò' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    esim: true;
  }
}
