import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/kernel/errors';
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

/** every language has every key (and no stray ones), placeholders kept; every error code has a message. */
const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));
const at = (o: object, path: string) => path.split('.').reduce<any>((x, k) => x?.[k], o) as string | undefined;
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('languages', () => {
  // The kinds' strings (loaded with the buy screen) are checked with the rest.
  const all = { ...en, ...enLater, ...enKinds };
  const english = keys(all);
  for (const [name, lang] of Object.entries({
    pcm: { ...pcm, ...pcmLater, ...pcmKinds },
    ha: { ...ha, ...haLater, ...haKinds },
    yo: { ...yo, ...yoLater, ...yoKinds },
  })) {
    it(`${name} has every English key, no others, with the same placeholders`, () => {
      expect(english.filter((k) => typeof at(lang, k) !== 'string' || at(lang, k)!.trim() === '')).toEqual([]);
      expect(keys(lang).filter((k) => !english.includes(k))).toEqual([]);
      expect(english.filter((k) => placeholders(at(lang, k)!).join() !== placeholders(at(all, k)!).join())).toEqual([]);
    });
  }
  it('every error code the service answers has a human message', () => {
    expect(ERROR_CODES.filter((c) => !(c in en.errors))).toEqual([]);
  });
});
