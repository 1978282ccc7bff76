import { describe, expect, it } from 'vitest';
import { vtpassOutcome } from '../../src/providers/vtu/vtpass.js';
import { orderOutcome } from '../../src/providers/vtu/order-query.js';
import { dataPlanKey, smeOutcome } from '../../src/providers/vtu/sme-data.js';
import { applyMarkup } from '../../src/modules/vtu/markups.js';
import { requestIdFor } from '../../src/modules/vtu/service.js';
import { magicOf } from '../../src/sandbox/vtu/engine.js';

/** How each protocol's answers are read: only explicit failures are failures (docs/design.md §11). */
describe('VTpass-style answers (provider C)', () => {
  const ok = (status: string, extra: object = {}) => ({
    status: 200,
    body: { code: '000', content: { transactions: { status, transactionId: 't1' } }, ...extra },
  });
  it('maps codes and transaction states', () => {
    expect(vtpassOutcome(ok('delivered', { purchased_code: 'Token : 1234-5678', units: '14.6 kWh' }))).toMatchObject({
      status: 'delivered',
      details: { token: '1234-5678', units: '14.6 kWh', providerReference: 't1' },
    });
    expect(vtpassOutcome(ok('pending')).status).toBe('pending');
    expect(vtpassOutcome(ok('initiated')).status).toBe('pending');
    expect(vtpassOutcome(ok('failed')).status).toBe('failed');
    expect(vtpassOutcome(ok('reversed')).status).toBe('failed');
    for (const [code, status] of [
      ['099', 'pending'],
      ['016', 'failed'],
      ['040', 'failed'],
      ['011', 'failed'],
      ['012', 'failed'],
      ['018', 'low_float'],
      ['015', 'not_found'],
      ['014', 'unknown'],
      ['087', 'unknown'],
      ['999', 'unknown'],
    ]) {
      expect(vtpassOutcome({ status: 200, body: { code, response_description: 'x' } }).status, code).toBe(status);
    }
  });
  it('5xx, non-JSON and empty answers are unknown, never failures', () => {
    expect(vtpassOutcome({ status: 502, body: { code: '016' } }).status).toBe('unknown');
    expect(vtpassOutcome({ status: 200, body: null }).status).toBe('unknown');
    expect(vtpassOutcome({ status: 200, body: {} }).status).toBe('unknown');
  });
  it('refused credentials (401/403) are definite failures: nothing was processed', () => {
    expect(vtpassOutcome({ status: 401, body: { code: '087' } }).status).toBe('failed');
    expect(orderOutcome({ status: 401, body: { status: 'UNAUTHORIZED' } }).status).toBe('failed');
    expect(smeOutcome({ status: 401, body: { detail: 'Invalid token.' } }).status).toBe('failed');
  });
  it('a refused or malformed requery says nothing about the purchase: unknown, never a refund', () => {
    expect(vtpassOutcome({ status: 401, body: { code: '087' } }, 'requery').status).toBe('unknown');
    for (const code of ['011', '012', '018'])
      expect(vtpassOutcome({ status: 200, body: { code } }, 'requery').status, code).toBe('unknown');
    expect(vtpassOutcome({ status: 200, body: { code: '016' } }, 'requery').status).toBe('failed');
    expect(smeOutcome({ status: 400, body: { error: ['bad ident'] } }, 'requery').status).toBe('unknown');
    expect(smeOutcome({ status: 401, body: {} }, 'requery').status).toBe('unknown');
    expect(smeOutcome({ status: 404, body: { detail: 'Not found.' } }, 'requery').status).toBe('not_found');
    expect(smeOutcome({ status: 200, body: { Status: 'failed' } }, 'requery').status).toBe('failed');
    expect(orderOutcome({ status: 400, body: { status: 'ORDER_REJECTED' } }, 'requery').status).toBe('unknown');
    expect(orderOutcome({ status: 403, body: {} }, 'requery').status).toBe('unknown');
    expect(orderOutcome({ status: 200, body: { status: 'ORDER_CANCELLED' } }, 'requery').status).toBe('failed');
  });
});

describe('SME-data answers (providers A and B)', () => {
  it('maps statuses and HTTP classes', () => {
    expect(smeOutcome({ status: 201, body: { id: 7, Status: 'successful' } })).toMatchObject({
      status: 'delivered',
      details: { providerReference: '7' },
    });
    expect(smeOutcome({ status: 201, body: { Status: 'failed', api_response: 'no' } })).toMatchObject({ status: 'failed', message: 'no' });
    expect(smeOutcome({ status: 201, body: { Status: 'processing' } }).status).toBe('pending');
    expect(smeOutcome({ status: 201, body: { Status: 'weird' } }).status).toBe('unknown');
    expect(smeOutcome({ status: 400, body: { error: ["You can't purchase this plan due to insufficient balance"] } }).status).toBe(
      'low_float',
    );
    expect(smeOutcome({ status: 400, body: { error: ['Invalid plan id'] } }).status).toBe('failed');
    expect(smeOutcome({ status: 404, body: { detail: 'Not found.' } }).status).toBe('not_found');
    expect(smeOutcome({ status: 500, body: null }).status).toBe('unknown');
  });
  it('plan keys are provider-independent', () => {
    expect(dataPlanKey('mtn', 'SME', '1.0GB', '30 days')).toBe('mtn-sme-1gb-30d');
    expect(dataPlanKey('glo', 'GIFTING', '1.35GB', '14 days')).toBe('glo-gifting-1.35gb-14d');
    expect(dataPlanKey('mtn', 'SME', '500.0MB', '30 days')).toBe('mtn-sme-500mb-30d');
  });
});

describe('order-and-query answers (provider D)', () => {
  it('completion is known only from the order state', () => {
    expect(orderOutcome({ status: 202, body: { status: 'ORDER_RECEIVED' } }).status).toBe('pending');
    expect(orderOutcome({ status: 200, body: { status: 'ORDER_ONHOLD' } }).status).toBe('pending');
    expect(
      orderOutcome({ status: 200, body: { status: 'ORDER_COMPLETED', order_id: 'D1', result: { pins: [{ pin: '1', serial: 'S' }] } } }),
    ).toMatchObject({
      status: 'delivered',
      details: { pins: [{ pin: '1', serial: 'S' }], providerReference: 'D1' },
    });
    expect(orderOutcome({ status: 200, body: { status: 'ORDER_CANCELLED' } }).status).toBe('failed');
    expect(orderOutcome({ status: 400, body: { status: 'ORDER_REJECTED' } }).status).toBe('failed');
    expect(orderOutcome({ status: 402, body: { status: 'ORDER_REJECTED', code: 'INSUFFICIENT_BALANCE' } }).status).toBe('low_float');
    expect(orderOutcome({ status: 404, body: { status: 'ORDER_NOT_FOUND' } }).status).toBe('not_found');
    expect(orderOutcome({ status: 503, body: null }).status).toBe('unknown');
  });
});

describe('prices, request ids, magic endings', () => {
  it('percent markups round up to the kobo; flat markups are added as they are', () => {
    expect(applyMarkup({ kind: 'percent', value: 500n }, 28000n)).toBe(1400n);
    expect(applyMarkup({ kind: 'percent', value: 150n }, 10001n)).toBe(151n); // 150.015 kobo -> 151
    expect(applyMarkup({ kind: 'flat', value: 10000n }, 1n)).toBe(10000n);
    expect(applyMarkup(undefined, 5000n)).toBe(0n);
  });
  it('request ids start with the Lagos date and time and are unique', () => {
    const now = new Date('2026-01-15T23:30:00Z'); // 00:30 on the 16th in Lagos
    const a = requestIdFor(now);
    expect(a.slice(0, 12)).toBe('202601160030');
    expect(a).not.toBe(requestIdFor(now));
    expect(a.length).toBeLessThanOrEqual(50);
  });
  it('magic endings read the last four digits only', () => {
    expect(magicOf('08031231111')).toBe('fail');
    expect(magicOf('BET4444')).toBe('timeout');
    expect(magicOf('11112345')).toBe('none');
  });
});
