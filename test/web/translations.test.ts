/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { CODE_TEXTS } from '../../src/kernel/code-texts.js';
import { EMAIL_FOOTER } from '../../src/modules/notifications/wording/index.js';
import { textsOf } from '../../src/modules/ussd/texts.js';
import { chatTexts } from '../../src/modules/whatsapp/texts.js';
import { SAME_EVERYWHERE, SAME_IN } from './translations-allowed.js';

/**
 * The translation check (issue 43): every catalogue, the app's (web/src/locales: X-en.ts beside X-ha.ts, X-pcm.ts,
 * X-yo.ts) and the service's (codes, e-mail footer, services' names, USSD and WhatsApp words), has every English key
 * in every language, no stray ones, and no English string left as it is: a value equal to the English one fails
 * unless it has nothing to translate (placeholders, numbers, punctuation) or is in the allow-list
 * (translations-allowed.ts: brand names, "OK"; Pidgin's own words that English shares). The operator console's
 * strings (web/src/locales/console/) are English only for now, so they are not here.
 */
const LANGUAGES = ['ha', 'pcm', 'yo'] as const;
type Language = 'en' | (typeof LANGUAGES)[number];
type Catalogue = Record<Language, unknown>;

/** The app's locale files, grouped by name ("fields-ha.ts" is the group "fields", "ha.ts" the group ""). */
function webCatalogues(): Record<string, Catalogue> {
  const files = import.meta.glob<Record<string, unknown>>('../../web/src/locales/*.ts', { eager: true });
  const groups: Record<string, Partial<Catalogue>> = {};
  for (const [file, exports] of Object.entries(files)) {
    const m = /\/(?:([a-z]+)-)?(en|ha|pcm|yo)\.ts$/.exec(file);
    if (!m) continue;
    (groups[m[1] ?? ''] ??= {})[m[2] as Language] = Object.assign({}, ...(Object.values(exports) as object[]));
  }
  return groups as Record<string, Catalogue>;
}

function serviceCatalogues(): Record<string, Catalogue> {
  const names = import.meta.glob<{ names: Catalogue }>('../../src/modules/vtu/kinds/*/names.ts', { eager: true });
  const byLanguage = <T>(f: (l: Language) => T) => ({ en: f('en'), ha: f('ha'), pcm: f('pcm'), yo: f('yo') });
  return {
    'service:codes': CODE_TEXTS,
    'service:email footer': EMAIL_FOOTER,
    'service:names': byLanguage((l) => Object.fromEntries(Object.entries(names).map(([f, n]) => [f, n.names[l]]))),
    'service:ussd': byLanguage(textsOf),
    'service:whatsapp': byLanguage(chatTexts),
  };
}

/** Every string of a catalogue by its path; a function's text is what it writes for sample arguments. */
function strings(o: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') out.set(path, v);
    else if (typeof v === 'function') out.set(path, String((v as (...a: unknown[]) => unknown)('{{a}}', 7, '{{c}}')));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
  };
  walk(o, prefix);
  return out;
}

/** Nothing to translate: placeholders, web addresses, numbers, currency and punctuation only. */
const nothingToTranslate = (s: string) =>
  !/\p{L}{2,}/u.test(s.replace(/\{\{\w+\}\}|\{\w+\}|https?:\/\/\S+|[A-Z]\d+|\bN\d[\d,.]*|₦[\d,.]*/g, ''));

const allowed = (language: Language, s: string) =>
  nothingToTranslate(s) || SAME_EVERYWHERE.has(s.trim()) || (SAME_IN[language]?.has(s.trim()) ?? false);

const catalogues = { ...webCatalogues(), ...serviceCatalogues() };

describe('translations', () => {
  it('finds the catalogues', () => {
    expect(Object.keys(catalogues).length).toBeGreaterThan(12);
    for (const [name, c] of Object.entries(catalogues)) expect(Object.keys(c).sort(), name).toEqual(['en', 'ha', 'pcm', 'yo']);
  });

  for (const [name, c] of Object.entries(catalogues)) {
    const english = strings(c.en);
    for (const language of LANGUAGES) {
      it(`${name || 'main'}: ${language} has every English key and no others`, () => {
        const theirs = strings(c[language]);
        expect([...english.keys()].filter((k) => !theirs.get(k)?.trim())).toEqual([]);
        expect([...theirs.keys()].filter((k) => !english.has(k))).toEqual([]);
      });
      it(`${name || 'main'}: ${language} leaves no English string untranslated`, () => {
        const theirs = strings(c[language]);
        const same = [...english].filter(([k, en]) => theirs.get(k) === en && !allowed(language, en));
        expect(same.map(([k, en]) => `${k}: ${en}`)).toEqual([]);
      });
    }
  }
});
