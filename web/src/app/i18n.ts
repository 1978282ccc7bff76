import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';

/** en ships in the first bundle; the other languages load when chosen. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'pcm', name: 'Naijá (Pidgin)' },
  { code: 'ha', name: 'Hausa' },
  { code: 'yo', name: 'Yorùbá' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const loaders: Record<Exclude<Language, 'en'>, () => Promise<Record<string, unknown>>> = {
  pcm: () => import('../locales/pcm').then((m) => m.pcm),
  ha: () => import('../locales/ha').then((m) => m.ha),
  yo: () => import('../locales/yo').then((m) => m.yo),
};

const LANGUAGE_KEY = 'vtu.language';

export function savedLanguage(): Language {
  const v = localStorage.getItem(LANGUAGE_KEY);
  return LANGUAGES.some((l) => l.code === v) ? (v as Language) : 'en';
}

export async function setLanguage(code: Language) {
  if (code !== 'en' && !i18next.hasResourceBundle(code, 'translation'))
    i18next.addResourceBundle(code, 'translation', await loaders[code]());
  localStorage.setItem(LANGUAGE_KEY, code);
  document.documentElement.lang = code;
  await i18next.changeLanguage(code);
}

export async function initI18n() {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const lang = savedLanguage();
  if (lang !== 'en') await setLanguage(lang);
}

/**
 * Typed translation keys: t('a.b') is checked against the English resource, so a missing or misspelt key is a type
 * error (the other languages are typed `Messages`, the same keys; the languages test checks placeholders).
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
