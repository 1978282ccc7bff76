import type { KindTab } from '../../../../app/kinds';

/** Its tab on the buy screen (web/src/app/kinds.ts): the service key, its place among the tabs, its label. */
export const tab: KindTab = {
  service: 'exam',
  order: 60,
  label: { en: 'Exam PINs', ha: 'PIN na jarrabawa', pcm: 'Exam PINs', yo: 'PIN ìdánwò' },
};

declare module '../../../../app/kinds' {
  interface BuyTabs {
    exam: true;
  }
}
