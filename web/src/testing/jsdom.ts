import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enLater } from '../locales/later-en';

/**
 * Component tests' set-up (jsdom): i18next with the given English strings (with the later screens' strings, which
 * the app loads with those screens), and what jsdom lacks that Mantine reads
 * (matchMedia for the colour scheme, ResizeObserver) and the app calls (scrollIntoView: the PIN pad
 * comes into view). Call it in `beforeAll`.
 */
export async function setUpComponentTests(translation: Record<string, unknown>) {
  await i18next
    .use(initReactI18next)
    .init({ resources: { en: { translation: { ...enLater, ...translation } } }, lng: 'en', interpolation: { escapeValue: false } });
  window.matchMedia ??= ((q: string) => ({
    matches: false,
    media: q,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    onchange: null,
    dispatchEvent: () => false,
  })) as never;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as never;
  Element.prototype.scrollIntoView ??= () => {};
}
