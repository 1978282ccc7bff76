import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors } from './form';
import { en } from '../locales/en';
import { enLater } from '../locales/later-en';
import { addressLines, apiKeySchema, beneficiaryLabelSchema, epinOrderSchema, webhookEndpointSchema } from '../api/schemas';

/** The rules of the forms moved onto the form library (issue 44): what they let through and what they say. */
beforeAll(async () => {
  await i18next.init({ resources: { en: { translation: { ...en, ...enLater } } }, lng: 'en', interpolation: { escapeValue: false } });
});

const key = { name: 'My shop', mode: 'test', scopes: ['read'], ips: '', dailyLimit: '' };

describe('form schemas', () => {
  it('a new API key: addresses one per line, an optional daily limit, at least one scope', () => {
    expect(schemaErrors(apiKeySchema, key)).toEqual({});
    expect(schemaErrors(apiKeySchema, { ...key, ips: '203.0.113.7\n2001:db8::1', dailyLimit: 5000 })).toEqual({});
    expect(addressLines(' 203.0.113.7 \n\n2001:db8::1 ')).toEqual(['203.0.113.7', '2001:db8::1']);
    const hints = { ips: 'developers.allowedIpsHint', scopes: 'developers.scopesHint' } as const;
    expect(schemaErrors(apiKeySchema, { ...key, name: ' ', ips: '203.0.113.7\nmy-server', scopes: [], dailyLimit: 0 }, hints)).toEqual({
      name: 'Fill this in.',
      ips: 'Enter up to 20 IP addresses, one per line, or leave it empty.',
      scopes: 'Choose at least one thing the key may do.',
      dailyLimit: 'Enter at least 1.',
    });
  });

  it('a webhook endpoint: a full web address', () => {
    expect(schemaErrors(webhookEndpointSchema, { url: 'https://example.com/hooks' })).toEqual({});
    expect(schemaErrors(webhookEndpointSchema, { url: 'example' }, { url: 'developers.webhookUrlHint' })).toEqual({
      url: 'Enter the full address of your endpoint, starting with https://',
    });
    expect(schemaErrors(webhookEndpointSchema, { url: '' })).toEqual({ url: 'Fill this in.' });
  });

  it('a recharge-card order: a whole quantity up to 1,000, a business name of 2 to 40 characters or none', () => {
    const order = { network: 'mtn', denomination: '100', quantity: 3, businessName: '' };
    expect(schemaErrors(epinOrderSchema, order)).toEqual({});
    expect(schemaErrors(epinOrderSchema, { ...order, businessName: '  My shop ' })).toEqual({});
    const hints = { businessName: 'epins.businessNameHint' } as const;
    expect(schemaErrors(epinOrderSchema, { ...order, quantity: 1001, businessName: 'x' }, hints)).toEqual({
      quantity: 'Enter at most 1000.',
      businessName: 'Use 2 to 40 letters, digits or spaces, or leave it empty.',
    });
    expect(schemaErrors(epinOrderSchema, { ...order, quantity: '' })).toEqual({ quantity: 'Fill this in.' });
  });

  it("a saved bill's name: required, at most 40 characters", () => {
    expect(schemaErrors(beneficiaryLabelSchema, { label: 'Home meter' })).toEqual({});
    expect(schemaErrors(beneficiaryLabelSchema, { label: '  ' })).toEqual({ label: 'Fill this in.' });
  });
});
