// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Screen as EsimScreen } from './kinds/esim/screen';
import { esimQueries } from './kinds/esim/queries';
import { peekDraft } from '../../app/draft';
import type { PurchaseRecord } from '../../components/receipt-details';
import { en } from '../../locales/en';
import { enKinds } from '../../locales/kinds-en';
import { repeatDraft, startRepeat } from './repeat';
import { setUpComponentTests } from '../../testing/jsdom';

beforeAll(() => setUpComponentTests({ ...en, ...enKinds }));
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

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

  it("an eSIM top-up's draft names the eSIM topped up, and the eSIM screen opens on the top-up with it and the plan chosen", async () => {
    // The service answers topUpEsim's input for a top-up row (ServiceKind.repeatVia): the eSIM's id, not a destination.
    const tx = {
      id: 'tx-topup-1',
      service: 'esim',
      recipient: '08031234568',
      amount: 3000,
      repeat: { operation: 'topUpEsim', input: { esim_id: 'tx-esim-1', plan_id: 'gb-3gb-30d', amount: 3000 } },
    } as unknown as PurchaseRecord;
    expect(repeatDraft(tx)).toEqual({ service: 'esim', fields: { esim_id: 'tx-esim-1', plan_id: 'gb-3gb-30d', amount: 3000 } });

    expect(startRepeat(tx)).toBe('esim');
    expect(peekDraft()).toEqual({ service: 'esim', fields: { esim_id: 'tx-esim-1', plan_id: 'gb-3gb-30d', amount: 3000 } });
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const esim = { iccid: '8923400000000012345', destination: 'gb', dataMb: 1024, topup: false };
    qc.setQueryData(esimQueries.myEsims().queryKey, { items: [{ id: 'tx-esim-1', service: 'esim', status: 'success', esim }] } as never);
    qc.setQueryData(esimQueries.esimPlans('gb').queryKey, {
      items: [
        { plan_id: 'gb-1gb-7d', dataMb: 1024, validityDays: 7, price: 6500 },
        { plan_id: 'gb-3gb-30d', dataMb: 3072, validityDays: 30, price: 3000 },
      ],
    } as never);
    render(
      <MantineProvider>
        <QueryClientProvider client={qc}>
          <EsimScreen />
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect((screen.getByRole('radio', { name: 'Top up my eSIM' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('combobox', { name: /Which eSIM/ }) as HTMLSelectElement).value).toBe('tx-esim-1');
    expect(((await screen.findByRole('combobox', { name: /Data plan/ })) as HTMLSelectElement).value).toBe('gb-3gb-30d');
  });
});
