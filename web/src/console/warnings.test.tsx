// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminQueries } from '../api/queries/admin';
import { enConsole } from '../locales/console';
import { en } from '../locales/en';
import { setUpComponentTests } from '../testing/jsdom';
import { ConsoleWarnings } from './Warnings';

/**
 * Issue 41: OPERATOR_2FA=optional in production is shown on every console screen, from getProfile's consoleWarnings
 * (test/security/production-defaults.test.ts proves the service answers them to operators only).
 */
beforeAll(() => setUpComponentTests({ ...en, ...enConsole }));
afterEach(cleanup);

const message = 'OPERATOR_2FA=optional: operators without a second factor run admin operations.';
const profile = { id: 'u1', email: 'ops@example.com', role: 'admin', operatorRoles: ['admin'] };

function renderWith(answer: unknown) {
  const qc = new QueryClient();
  qc.setQueryData(adminQueries.me().queryKey, answer as never);
  render(
    <MantineProvider>
      <QueryClientProvider client={qc}>
        <ConsoleWarnings />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('console warnings', () => {
  it('a banner (role alert) with its title and the service message for each warning', () => {
    renderWith({ profile, consoleWarnings: [{ code: 'OPERATOR_2FA_OPTIONAL', message }] });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Operators can act without a second factor');
    expect(alert.textContent).toContain(message);
  });

  it('nothing without warnings', () => {
    renderWith({ profile, consoleWarnings: [] });
    expect(screen.queryByRole('alert')).toBeNull();
    cleanup();
    renderWith({ profile });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
