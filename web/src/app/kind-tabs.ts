import { useTranslation } from 'react-i18next';
import type { Language } from './i18n';
import type { KindTab } from './kinds';

/**
 * Each kind's tab (web/src/features/buy/kinds/<kind>/tab.ts, found there: none is listed by hand) keyed by its folder,
 * which is the kind's name: a purchase's `service`. The buy screen's tabs (buy-services.ts) and the kinds' screens
 * read it; the home screen's activity lines and quick actions, and the transactions list, name a purchase by its
 * tab's label, so the tabs are part of the first screens (every language's label, a few bytes each).
 */
const tabs = import.meta.glob<KindTab>('./*/tab.ts', { base: '../features/buy/kinds', eager: true, import: 'tab' });
export const KIND_TABS: ReadonlyMap<string, KindTab> = new Map(Object.entries(tabs).map(([path, tab]) => [path.split('/')[1], tab]));

/** A tab's label in `language` (English for a language it lacks). */
export const tabLabel = (label: KindTab['label'], language: string): string => label[language as Language] ?? label.en;

/** A kind's label in `language`; the service as written for one no kind's folder labels (a kind sold by API only). */
export const kindLabel = (service: string, language: string): string => {
  const tab = KIND_TABS.get(service);
  return tab ? tabLabel(tab.label, language) : service;
};

/** `kindLabel` in the language being read (a component re-renders when it changes). */
export function useKindLabel(): (service: string) => string {
  const { i18n } = useTranslation();
  return (service) => kindLabel(service, i18n.language);
}
