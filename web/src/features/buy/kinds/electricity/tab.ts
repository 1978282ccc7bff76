import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'electricity',
  order: 40,
  label: { en: 'Electricity', ha: 'Wutar lantarki', pcm: 'Light (electricity)', yo: 'Iná mànàmáná' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    electricity: true;
  }
}
