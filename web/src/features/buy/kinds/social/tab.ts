import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'social',
  order: 80,
  label: { en: 'Social boost', ha: 'Tallan sada zumunta', pcm: 'Social media boost', yo: 'Ìgbéga ìkànnì àjọlò' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    social: true;
  }
}
