import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'airtime',
  order: 10,
  label: { en: 'Airtime', ha: 'Katin waya (airtime)', pcm: 'Airtime', yo: 'Káàdì ìpè (airtime)' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    airtime: true;
  }
}
