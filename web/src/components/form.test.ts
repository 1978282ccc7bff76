// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { airtimeSchema, transferSchema } from '../api/schemas';
import { pcm } from '../locales/pcm';
import { en } from '../locales/en';
import { enLater } from '../locales/later-en';
import { pcmLater } from '../locales/later-pcm';
import { schemaErrors, showServerIssues, useSchemaForm } from './form';

/** The form helper: the service's rules, the app's words (in the chosen language), the service's issues under their fields. */
beforeAll(async () => {
  await i18next.init({
    resources: { en: { translation: { ...en, ...enLater } }, pcm: { translation: { ...pcm, ...pcmLater } } },
    lng: 'en',
    interpolation: { escapeValue: false },
  });
});

describe('form messages', () => {
  it('says each broken rule in the app’s words, amounts in naira, never the service’s English', async () => {
    const errors = schemaErrors(transferSchema, { username: 'a b', amount: 1, note: 'x'.repeat(141) });
    expect(errors).toEqual({
      username: 'This is not right. Check it and try again.',
      amount: 'Enter at least ₦50.00.',
      note: 'Use at most 140 characters.',
    });
    expect(schemaErrors(transferSchema, { username: 'ada', amount: '', note: '' })).toEqual({ amount: 'Fill this in.' });
    await i18next.changeLanguage('pcm');
    expect(schemaErrors(transferSchema, { username: 'ada', amount: 1, note: '' })).toEqual({ amount: 'Put at least ₦50.00.' });
    await i18next.changeLanguage('en');
  });

  it('says a field’s own sentence where its rule is a pattern (a short phone number), and "Fill this in" where no sentence is given', () => {
    const hints = { phone: 'buy.phoneInvalid' } as const;
    expect(schemaErrors(airtimeSchema, { network: 'mtn', phone: '0803', amount: 100 }, hints)).toEqual({
      phone: 'Enter an 11-digit Nigerian number, like 08031234567.',
    });
    // A hint may word only some issues of its field and keep the generic words for the rest.
    const floor = { amount: (i: { code: string }) => (i.code === 'invalid_type' ? 'Enter at least ₦50.00.' : undefined) };
    expect(schemaErrors(airtimeSchema, { network: 'mtn', phone: '08031234567', amount: '' }, floor)).toEqual({
      amount: 'Enter at least ₦50.00.',
    });
    expect(schemaErrors(airtimeSchema, { network: 'mtn', phone: '08031234567', amount: 50_001 }, floor)).toEqual({
      amount: 'Enter at most ₦50,000.00.',
    });
    expect(schemaErrors(airtimeSchema, { network: '', phone: '08031234567', amount: '' })).toEqual({
      network: 'Fill this in.',
      amount: 'Fill this in.',
    });
  });

  it('puts a 400 answer’s issues under the fields it names and says whether it did', () => {
    const { result } = renderHook(() => useSchemaForm(transferSchema, { username: 'ada', amount: 20 as number | '', note: '' }));
    const refusal = new ApiError('VALIDATION_FAILED', 'amount: amount must be at least 50 naira', 400, [
      { path: 'amount', message: 'amount must be at least 50 naira' },
    ]);
    let placed = false;
    act(() => void (placed = showServerIssues(result.current, refusal)));
    expect(placed).toBe(true);
    expect(result.current.errors.amount).toBe('Enter at least ₦50.00.');
    expect(showServerIssues(result.current, new ApiError('INSUFFICIENT_FUNDS', 'low', 402, []))).toBe(false);
  });
});
