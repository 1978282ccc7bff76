// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../locales/en';
import { ha } from '../locales/ha';
import { pcm } from '../locales/pcm';
import { yo } from '../locales/yo';
import { enLater } from '../locales/later-en';
import { haLater } from '../locales/later-ha';
import { pcmLater } from '../locales/later-pcm';
import { yoLater } from '../locales/later-yo';
import { enKinds } from '../locales/kinds-en';
import { haKinds } from '../locales/kinds-ha';
import { pcmKinds } from '../locales/kinds-pcm';
import { yoKinds } from '../locales/kinds-yo';
import lite, { useTranslation } from './i18n-lite';

/**
 * The lookup the app runs in place of i18next (web/vite.config.mts) says what i18next says: every key of every
 * language, its placeholders filled, plural keys at several counts. The tests import i18next itself here.
 */
// Each language with the kinds' strings the buy screen adds to it (app/i18n.ts loadKindStrings).
const LANGS = {
  en: { ...en, ...enLater, ...enKinds },
  pcm: { ...pcm, ...pcmLater, ...pcmKinds },
  ha: { ...ha, ...haLater, ...haKinds },
  yo: { ...yo, ...yoLater, ...yoKinds },
};
const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));
const placeholders = (o: object) => {
  const names = new Set<string>();
  for (const s of JSON.stringify(o).matchAll(/\{\{(\w+)\}\}/g)) names.add(s[1]);
  return Object.fromEntries([...names].map((n) => [n, `<${n}>`]));
};

describe('i18n-lite', () => {
  it('answers as i18next does for every key of every language', async () => {
    const real = i18next.createInstance();
    await real.init({
      resources: Object.fromEntries(Object.entries(LANGS).map(([l, s]) => [l, { translation: s }])),
      lng: 'en',
      fallbackLng: false,
      interpolation: { escapeValue: false },
    });
    // Any key, typed or not: the comparison walks the strings themselves.
    const realT = real.t as unknown as (key: string, options?: object) => string;
    await lite.init({ lng: 'en', resources: Object.fromEntries(Object.entries(LANGS).map(([l, s]) => [l, { translation: s }])) });
    const params = placeholders(LANGS.en);
    let compared = 0;
    for (const lng of Object.keys(LANGS)) {
      await real.changeLanguage(lng);
      await lite.changeLanguage(lng);
      expect(lite.language).toBe(lng);
      const all = keys(LANGS[lng as keyof typeof LANGS]);
      const plural = new Set(all.filter((k) => /_(one|other)$/.test(k)).map((k) => k.replace(/_(one|other)$/, '')));
      for (const key of all) {
        expect(lite.t(key, params), `${lng} ${key}`).toBe(realT(key, params));
        expect(lite.t(key), `${lng} ${key} without options`).toBe(realT(key));
        compared++;
      }
      for (const key of plural)
        for (const count of [0, 1, 2, 5, 21]) {
          expect(lite.t(key, { ...params, count }), `${lng} ${key} ${count}`).toBe(realT(key, { ...params, count }));
          expect(lite.exists(key, { count })).toBe(true);
        }
    }
    expect(compared).toBeGreaterThan(4 * 300);
    // A missing key: its default value, else the key itself; a group of keys is not a string.
    expect(lite.t('no.such.key')).toBe(realT('no.such.key'));
    expect(lite.t('no.such.key', { defaultValue: 'airtime' })).toBe('airtime');
    expect(lite.exists('errors.NETWORK')).toBe(true);
    expect(lite.exists('errors')).toBe(false);
    expect(lite.exists('errors.NO_SUCH_CODE')).toBe(false);
    expect(lite.t('pin.wrongTriesLeft', { count: 2 })).toBe(real.t('pin.wrongTriesLeft', { count: 2 }));
  });

  it('re-renders what uses the hook when the language or its strings change', async () => {
    await lite.init({ lng: 'en', resources: { en: { translation: en } } });
    const { result } = renderHook(() => useTranslation());
    expect(result.current.t('nav.home')).toBe(en.nav.home);
    expect(lite.hasResourceBundle('ha', 'translation')).toBe(false);
    await act(async () => {
      lite.addResourceBundle('ha', 'translation', ha);
      await lite.changeLanguage('ha');
    });
    expect(result.current.i18n.language).toBe('ha');
    expect(result.current.t('nav.home')).toBe(ha.nav.home);
    expect(lite.hasResourceBundle('ha', 'translation')).toBe(true);
  });
});
