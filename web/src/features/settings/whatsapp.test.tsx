// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from '../../locales/en';
import { setUpComponentTests } from '../../testing/jsdom';
import * as ops from '../../api/operations';

/**
 * The WhatsApp section of the settings (issue 46), against the service's answers
 * as the contract states them (test/whatsapp/ proves the service's side; web/e2e/whatsapp.spec.ts both together).
 */
const post = vi.fn();
const get = vi.fn();
const signOut = vi.fn(async () => undefined);
vi.mock('../../api/client', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  post: (...a: unknown[]) => post(...a),
  get: (...a: unknown[]) => get(...a),
}));
vi.mock('../../app/auth', () => ({ useAuth: () => ({ signOut }) }));
// A worker runs file after file with the modules it imported (isolate: false): another file's screens may hold the
// client with that file's double. This file's screens are imported afresh, so they call this file's double.
vi.resetModules();
const { WhatsappSettings, waMeLink } = await import('./Whatsapp');

beforeAll(() => setUpComponentTests(en));
afterEach(() => {
  cleanup();
  post.mockReset();
  get.mockReset();
  signOut.mockClear();
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

describe('the WhatsApp settings section', () => {
  it('gives a one-time code to send from WhatsApp, with a wa.me link, and says "linked" once the message arrived', async () => {
    let linked = false;
    get.mockImplementation(async (path: string) => {
      if (path === ops.getWhatsappLink)
        return linked ? { linked: true, phone: '+2348031230001', linkedAt: '2026-12-02T10:00:00.000Z' } : { linked: false };
      throw new Error(`unexpected ${path}`);
    });
    post.mockImplementation(async (path: string) => {
      if (path === ops.createWhatsappLinkCode) return { code: '482913', expiresAt: '2026-12-02T10:10:00.000Z', sendTo: '+2348000000046' };
      throw new Error(`unexpected ${path}`);
    });
    show(<WhatsappSettings />);
    expect(await screen.findByText('No WhatsApp number is linked.', undefined, slow)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Link WhatsApp' }));
    expect((await screen.findByLabelText('Message to send', undefined, slow)).textContent).toBe('LINK 482913');
    expect(screen.getByText(/send this message to \+2348000000046/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open WhatsApp with this message' }).getAttribute('href')).toBe(
      'https://wa.me/2348000000046?text=LINK%20482913',
    );
    linked = true;
    expect(await screen.findByText(/Linked to \+2348031230001 since/, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByLabelText('Message to send')).toBeNull();
  });

  it('"this wasn\'t me" asks first, then ends the link and signs out (every session ended)', async () => {
    get.mockResolvedValue({ linked: true, phone: '+2348031230001', linkedAt: '2026-12-02T10:00:00.000Z' });
    post.mockImplementation(async (path: string) => {
      if (path === ops.endWhatsappLink) return { ended: true, wasLinked: true, sessionsEnded: 2 };
      throw new Error(`unexpected ${path}`);
    });
    show(<WhatsappSettings />);
    fireEvent.click(await screen.findByRole('button', { name: 'This wasn’t me' }, slow));
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'End the link and sign out everywhere' }));
    await waitFor(() => expect(signOut).toHaveBeenCalled(), slow);
    expect(post).toHaveBeenCalledWith(ops.endWhatsappLink, {}, undefined);
  });

  it('unlinks', async () => {
    let linked = true;
    get.mockImplementation(async () =>
      linked ? { linked: true, phone: '+2348031230001', linkedAt: '2026-12-02T10:00:00.000Z' } : { linked: false },
    );
    post.mockImplementation(async (path: string) => {
      if (path !== ops.unlinkWhatsapp) throw new Error(`unexpected ${path}`);
      linked = false;
      return { unlinked: true };
    });
    show(<WhatsappSettings />);
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink WhatsApp' }, slow));
    expect(await screen.findByText('WhatsApp is unlinked.', undefined, slow)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Link WhatsApp' })).toBeTruthy();
  });

  it('wa.me takes the number as digits', () => {
    expect(waMeLink('+234 800 000 0046', 'LINK 1')).toBe('https://wa.me/2348000000046?text=LINK%201');
  });
});
