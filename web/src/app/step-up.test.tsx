// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from '../locales/en';
import { setUpComponentTests } from '../testing/jsdom';
import * as ops from '../api/operations';

/**
 * Issue 29, a broken path: with 2FA on and a session opened by an e-mailed code, the confirmation step e-mailed a code
 * the service then refused. The step now asks which codes the service accepts here (getMyTwoFactor stepUpMethods)
 * and offers only those (test/security/step-up-methods.test.ts proves the service's side).
 */
const post = vi.fn();
vi.mock('../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), post: (...a: unknown[]) => post(...a) }));
// A worker runs file after file with the modules it imported (isolate: false): another file's screens may hold the
// client with that file's double. This file's screens are imported afresh, so they call this file's double.
vi.resetModules();
const { useStepUp } = await import('./StepUp');
const { ApiError } = await import('../api/client');
const { forgetGrant } = await import('./grant');

beforeAll(() => setUpComponentTests(en));
afterEach(() => {
  cleanup();
  post.mockReset();
  forgetGrant();
});

function Transfer({ run }: { run: (grant?: string) => Promise<string> }) {
  const { withGrant, modal } = useStepUp();
  return (
    <MantineProvider>
      <button onClick={() => void withGrant(run).catch(() => undefined)}>Send</button>
      {modal}
    </MantineProvider>
  );
}

const needsGrant = (grant?: string) =>
  grant ? Promise.resolve('sent') : Promise.reject(new ApiError('STEP_UP_REQUIRED', 'Two-factor confirmation required', 403));
/** On a loaded machine the modal can take longer than testing-library's one second. */
const slow = { timeout: 15_000 };
const called = (path: string) => post.mock.calls.some(([p]) => p === path);

describe('step-up', () => {
  it('asks for the authenticator code only, and e-mails nothing, where the service accepts only that', async () => {
    post.mockImplementation(async (path: string) => {
      if (path === ops.getMyTwoFactor) return { enrolled: true, confirmed: true, grantValid: false, stepUpMethods: ['authenticator'] };
      if (path === ops.verifyStepupChallenge) return { grantToken: 'grt_x', expiresAt: new Date(Date.now() + 600_000).toISOString() };
      throw new Error(`unexpected ${path}`);
    });
    const run = vi.fn(needsGrant);
    render(<Transfer run={run} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/code from your authenticator app\. You signed in with an e-mailed code/, undefined, slow)).toBeTruthy();
    expect(called(ops.sendStepupEmailCode)).toBe(false);
    expect(screen.queryByRole('button', { name: 'E-mail me a new code' })).toBeNull();
    for (let n = 1; n <= 6; n++) fireEvent.change(screen.getByLabelText(`Code digit ${n} of 6`), { target: { value: String(n) } });
    await waitFor(() => expect(run).toHaveBeenLastCalledWith('grt_x'), slow);
  });

  it('e-mails a code where the service accepts one', async () => {
    post.mockImplementation(async (path: string) => {
      if (path === ops.getMyTwoFactor) return { enrolled: false, confirmed: false, grantValid: false, stepUpMethods: ['email'] };
      if (path === ops.sendStepupEmailCode) return { sent: true, expiresInSeconds: 600, stepUpMethods: ['email'] };
      throw new Error(`unexpected ${path}`);
    });
    render(<Transfer run={needsGrant} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/we sent a 6-digit code to your e-mail/, undefined, slow)).toBeTruthy();
    expect(called(ops.sendStepupEmailCode)).toBe(true);
    expect(screen.getByRole('button', { name: 'E-mail me a new code' })).toBeTruthy();
  });

  it('an operator whose only second factor is a passkey confirms with it (issue 30): no code asked, no e-mail sent', async () => {
    const buf = (text: string) => new TextEncoder().encode(text).buffer;
    const get = vi.fn(async () => ({
      id: 'Y3JlZA',
      rawId: buf('cred'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: buf('{}'), authenticatorData: buf('auth'), signature: buf('sig'), userHandle: null },
      getClientExtensionResults: () => ({}),
    }));
    // The browser's WebAuthn API (jsdom has none): what navigator.credentials.get hands @simplewebauthn/browser.
    (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential = class {};
    Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get } });
    post.mockImplementation(async (path: string, body: { method?: string; assertion?: { id: string } }) => {
      if (path === ops.getMyTwoFactor) return { enrolled: false, confirmed: false, grantValid: false, stepUpMethods: ['passkey'] };
      if (path === ops.adminPasskeyStepupOptions)
        return { options: { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }], timeout: 300_000 } };
      if (path === ops.verifyStepupChallenge && body.method === 'passkey' && body.assertion?.id === 'Y3JlZA')
        return { grantToken: 'grt_p', expiresAt: new Date(Date.now() + 600_000).toISOString() };
      throw new Error(`unexpected ${path}`);
    });
    const run = vi.fn(needsGrant);
    render(<Transfer run={run} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/Confirm with your passkey/, undefined, slow)).toBeTruthy();
    expect(called(ops.sendStepupEmailCode)).toBe(false);
    expect(screen.queryByLabelText('Code digit 1 of 6')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Use my passkey' }));
    await waitFor(() => expect(run).toHaveBeenLastCalledWith('grt_p'), slow);
    expect(get).toHaveBeenCalledTimes(1);
  });
});
