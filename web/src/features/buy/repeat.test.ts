import { describe, expect, it } from 'vitest';
import type { PurchaseRecord } from '../../components/receipt-details';
import { repeatDraft } from './repeat';

describe('buy again', () => {
  it("an eSIM's draft is the service's stated input without the PIN: the destination with the plan, as the eSIM form reads them", () => {
    const tx = {
      service: 'esim',
      recipient: '08031234568',
      amount: 6500,
      repeat: { operation: 'buyEsim', input: { destination: 'gb', plan_id: 'gb-1gb-7d', phone: '08031234568', amount: 6500, pin: '1234' } },
    } as unknown as PurchaseRecord;
    expect(repeatDraft(tx)).toEqual({
      service: 'esim',
      fields: { destination: 'gb', plan_id: 'gb-1gb-7d', phone: '08031234568', amount: 6500 },
    });
  });
});
