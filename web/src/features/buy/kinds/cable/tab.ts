import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'cable',
  order: 30,
  label: { en: 'Cable TV', ha: 'Talabijin na kebul', pcm: 'Cable TV', yo: 'Tẹlifíṣọ̀n kébù' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    cable: true;
  }
}
