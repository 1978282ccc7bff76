// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from '../../locales/en';
import { setUpComponentTests } from '../../testing/jsdom';
import * as ops from '../../api/operations';

/**
 * The PIN page of a WhatsApp chat's link (issue 46), against the service's answers
 * as the contract states them (test/whatsapp/ proves the service's side; web/e2e/whatsapp.spec.ts both together).
 */
const post = vi.fn();
const get = vi.fn();
vi.mock('../../api/client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  post: (...a: unknown[]) => post(...a),
  get: (...a: unknown[]) => get(...a),
}));
// A worker runs file after file with the modules it imported (isolate: false): another file's screens may hold the
// client with that file's double. This file's screens are imported afresh, so they call this file's double.
vi.resetModules();
const { PinRequest } = await import('./PinPage');
const { ApiError } = await import('../../api/client');

beforeAll(() => setUpComponentTests(en));
afterEach(() => {
  cleanup();
  post.mockReset();
  get.mockReset();
});

const slow = { timeout: 15_000 };
function show(ui: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={qc}>{ui}</QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the WhatsApp PIN page', () => {
  const token = 'A'.repeat(32);
  const waiting = { summary: 'Airtime ₦200 to 08031239876', amountKobo: 20_000, expiresAt: '2026-12-02T10:10:00.000Z', state: 'waiting' };
  const type = (pin: string) => {
    for (const d of pin) fireEvent.click(screen.getByRole('button', { name: `Digit ${d}` }));
  };

  it('shows what the chat asked for, says the tries left on a wrong PIN, and sends the result to the chat', async () => {
    get.mockResolvedValue(waiting);
    post.mockImplementation(async (_path: string, body: { pin: string }) => {
      if (body.pin !== '1357') throw new ApiError('INVALID_PIN', 'Incorrect PIN', 400, [], { triesLeft: 4 });
      return { state: 'done', result: 'Airtime ₦200 to 08031239876 delivered' };
    });
    show(<PinRequest token={token} />);
    expect(await screen.findByText('Airtime ₦200 to 08031239876', undefined, slow)).toBeTruthy();
    expect(screen.getByText('Total: ₦200.00')).toBeTruthy();
    type('0000');
    expect((await screen.findByRole('alert', undefined, slow)).textContent).toBe('That PIN is not right. Tries left: 4.');
    type('1357');
    expect(await screen.findByText(/Go back to WhatsApp: the result and your receipt are in the chat/, undefined, slow)).toBeTruthy();
    expect(post).toHaveBeenLastCalledWith(ops.confirmWhatsappPin, { token, pin: '1357' }, undefined);
    expect(get).toHaveBeenCalledWith(ops.getWhatsappPinRequest, { token });
  });

  it('an expired, used or unknown link takes no PIN', async () => {
    get.mockResolvedValueOnce({ ...waiting, state: 'expired' });
    show(<PinRequest token={token} />);
    expect(await screen.findByText('This link has expired. Start again in WhatsApp.', undefined, slow)).toBeTruthy();
    expect(screen.queryByRole('group')).toBeNull();
    cleanup();
    get.mockResolvedValueOnce({ ...waiting, state: 'done' });
    show(<PinRequest token={token} />);
    expect(await screen.findByText(/already confirmed/, undefined, slow)).toBeTruthy();
    cleanup();
    get.mockRejectedValueOnce(new ApiError('NOT_FOUND', 'Not found', 404));
    show(<PinRequest token={token} />);
    expect(await screen.findByText(/This link is not valid/, undefined, slow)).toBeTruthy();
  });
});
