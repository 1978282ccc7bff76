import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { en } from '../locales/en';
import type { enConsole } from '../locales/console';
import type { enLater } from '../locales/later-en';
import type { KindStrings } from './kinds';

/**
 * `i18next` and `react-i18next` are the app's 1 KB lookup in the build (i18n-lite.ts, web/vite.config.mts): the same
 * calls and types, checked against i18next by its test.
 *
 * Each language is its own chunk, English included: a person downloads only the strings of the language they read
 * (its error messages with it), never English as well. The start chunk asks for it at once, in parallel with the app.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'pcm', name: 'Naijá (Pidgin)' },
  { code: 'ha', name: 'Hausa' },
  { code: 'yo', name: 'Yorùbá' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const loaders: Record<Language, () => Promise<Record<string, unknown>>> = {
  en: () => import('../locales/en').then((m) => m.en),
  pcm: () => import('../locales/pcm').then((m) => m.pcm),
  ha: () => import('../locales/ha').then((m) => m.ha),
  yo: () => import('../locales/yo').then((m) => m.yo),
};

/** The kinds' buy screens' strings (each kind's features/buy/kinds/<kind>/strings-<lang>.ts): loaded with the buy screen, in the language being read. */
const kindLoaders: Record<Language, () => Promise<object>> = {
  en: () => import('../locales/kinds-en').then((m) => m.enKinds),
  pcm: () => import('../locales/kinds-pcm').then((m) => m.pcmKinds),
  ha: () => import('../locales/kinds-ha').then((m) => m.haKinds),
  yo: () => import('../locales/kinds-yo').then((m) => m.yoKinds),
};
const kindsLoaded = new Set<Language>();
let kindsWanted = false;

/**
 * The strings of every screen but sign-in and home (locales/later-<lang>.ts): loaded before such a screen draws
 * (router.tsx), so the first screens download only their own.
 */
const laterLoaders: Record<Language, () => Promise<object>> = {
  en: () => import('../locales/later-en').then((m) => m.enLater),
  pcm: () => import('../locales/later-pcm').then((m) => m.pcmLater),
  ha: () => import('../locales/later-ha').then((m) => m.haLater),
  yo: () => import('../locales/later-yo').then((m) => m.yoLater),
};
const laterLoaded = new Set<Language>();
let laterWanted = false;

async function addLaterStrings(code: Language) {
  if (laterLoaded.has(code)) return;
  i18next.addResourceBundle(code, 'translation', await laterLoaders[code]());
  laterLoaded.add(code);
}

/** Before a later screen draws: its strings in the current language (and in any language chosen after). */
export async function loadLaterStrings() {
  laterWanted = true;
  await addLaterStrings((i18next.language as Language) ?? savedLanguage());
}

/** Adds the kinds' strings of `code` to its bundle (once); after the first call, every language switched to gets them. */
async function addKindStrings(code: Language) {
  if (kindsLoaded.has(code)) return;
  i18next.addResourceBundle(code, 'translation', await kindLoaders[code]());
  kindsLoaded.add(code);
}

/** Before the buy screen draws: its kinds' strings in the current language (and in any language chosen later). */
export async function loadKindStrings() {
  kindsWanted = true;
  await addKindStrings((i18next.language as Language) ?? savedLanguage());
}

const LANGUAGE_KEY = 'vtu.language';

/** The language chosen on this device; before any choice, the phone's own when the app has it (ha-NG: Hausa), else English. */
export function savedLanguage(): Language {
  const v = localStorage.getItem(LANGUAGE_KEY) ?? phoneLanguage();
  return LANGUAGES.some((l) => l.code === v) ? (v as Language) : 'en';
}

/** The first of the phone's languages (navigator.languages, most preferred first) that the app speaks. */
export function phoneLanguage(): Language | null {
  const codes = navigator.languages.map((l) => l.split('-')[0].toLowerCase());
  return (codes.find((c) => LANGUAGES.some((l) => l.code === c)) as Language | undefined) ?? null;
}

/** The console's strings (locales/console/), English for every language: loaded with the console's screens. */
let consoleStrings: object | null = null;

/** Before a console screen draws: its strings, added to the current language (and to any language chosen after). */
export async function loadConsoleStrings() {
  consoleStrings ??= (await import('../locales/console')).enConsole;
  i18next.addResourceBundle(i18next.language ?? savedLanguage(), 'translation', consoleStrings);
}

export async function setLanguage(code: Language) {
  if (!i18next.hasResourceBundle(code, 'translation')) i18next.addResourceBundle(code, 'translation', await loaders[code]());
  if (laterWanted) await addLaterStrings(code);
  if (kindsWanted) await addKindStrings(code);
  if (consoleStrings) i18next.addResourceBundle(code, 'translation', consoleStrings);
  localStorage.setItem(LANGUAGE_KEY, code);
  document.documentElement.lang = code;
  await i18next.changeLanguage(code);
}

export async function initI18n() {
  const lang = savedLanguage();
  const strings = loaders[lang]();
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: lang,
    // Every language has every key (i18n.test.ts), so nothing falls back to a language that was not downloaded.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  i18next.addResourceBundle(lang, 'translation', await strings);
  document.documentElement.lang = lang;
}

/**
 * Typed translation keys: t('a.b') is checked against the English resource, so a missing or misspelt key is a type
 * error (the other languages are typed `Messages`, the same keys; the languages test checks placeholders).
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof enLater & KindStrings & typeof enConsole };
  }
}
