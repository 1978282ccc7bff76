import type { KindTab } from '../../../../../../web/src/app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key and its place among the tabs. */
export const tab: KindTab = { service: 'cable', order: 30 };

declare module '../../../../../../web/src/app/kinds' {
  interface BuyTabs {
    cable: true;
  }
}
