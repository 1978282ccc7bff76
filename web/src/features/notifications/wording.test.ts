// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../locales/en';
import { ha } from '../../locales/ha';
import { pcm } from '../../locales/pcm';
import { yo } from '../../locales/yo';
import { enLater } from '../../locales/later-en';
import { haLater } from '../../locales/later-ha';
import { pcmLater } from '../../locales/later-pcm';
import { yoLater } from '../../locales/later-yo';
import { SERVICE_NAMES, useNoticeWording } from './wording';

/** The inbox names a purchase's service from its kind's folder (src/modules/vtu/kinds/<kind>/names.ts), in each language. */
beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    resources: {
      en: { translation: { ...en, ...enLater } },
      ha: { translation: { ...ha, ...haLater } },
      pcm: { translation: { ...pcm, ...pcmLater } },
      yo: { translation: { ...yo, ...yoLater } },
    },
    lng: 'en',
    interpolation: { escapeValue: false },
  });
});

const delivered = (service: string) => ({
  kind: 'purchase_delivered',
  title: 'Delivered',
  body: 'Delivered.',
  params: { service, amount: 150, recipient: '08031230001' },
});

describe("the inbox's wording", () => {
  it("finds every kind's names in its folder, the first six kinds' and issue 32's", () => {
    expect([...SERVICE_NAMES.keys()]).toEqual(
      expect.arrayContaining(['airtime', 'data', 'cable', 'electricity', 'betting', 'exam', 'esim', 'social', 'flights']),
    );
  });

  it("words a purchase with its kind's name in the language being read, as the service's push and e-mail do", async () => {
    const { result } = renderHook(() => useNoticeWording());
    await act(() => i18next.changeLanguage('yo'));
    // The same words test/web/notice-wording.test.ts expects of the service's channels.
    expect(result.current(delivered('airtime'))).toEqual({
      title: 'A ti fi Káàdì ìpè (airtime) ránṣẹ́',
      body: 'Káàdì ìpè (airtime) ₦150.00 rẹ fún 08031230001 ti dé.',
    });
    for (const lang of ['en', 'ha', 'pcm', 'yo'] as const) {
      await act(() => i18next.changeLanguage(lang));
      for (const [service, names] of SERVICE_NAMES)
        expect(result.current(delivered(service)).title, `${lang} ${service}`).toContain(names[lang]);
    }
    await act(() => i18next.changeLanguage('ha'));
    expect(result.current(delivered('flights')).title).toContain('Tikitin jirgin sama');
    expect(
      result.current({ kind: 'schedule_failed', title: 't', body: 'b', params: { service: 'data', phone: '08031230001' } }).body,
    ).toContain('Data');
  });

  it('keeps the English text for a service no kind names, and for a purchase missing a fact', async () => {
    const { result } = renderHook(() => useNoticeWording());
    await act(() => i18next.changeLanguage('pcm'));
    expect(result.current(delivered('lottery'))).toEqual({ title: 'Delivered', body: 'Delivered.' });
    const { recipient: _r, ...partial } = delivered('esim').params;
    expect(result.current({ ...delivered('esim'), params: partial })).toEqual({ title: 'Delivered', body: 'Delivered.' });
    await act(() => i18next.changeLanguage('en'));
  });
});
