import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser journeys (issue #19) against a real server: the built app served by `node dist/main.js --sandbox`
 * (embedded PGlite in a fresh directory, every upstream simulated). Chromium is the machine's (Debian package):
 * Playwright's own download is not reachable. CHROMIUM_PATH overrides where it is.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(os.tmpdir(), 'vtu-e2e-results'),
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'off',
    screenshot: 'off',
    permissions: ['camera', 'notifications'],
    launchOptions: {
      executablePath,
      args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--no-sandbox'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node dist/main.js --sandbox',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${BASE_URL}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR: path.join(os.tmpdir(), `vtu-e2e-${process.pid}-${Date.now()}`),
      ADMIN_EMAILS:
        'ops@example.com,ops-bills@example.com,ops-second@example.com,ops-narrow@example.com,ops-everyday@example.com,ops-receipts@example.com,ops-console@example.com,ops-console-second@example.com,ops-console-screens@example.com,ops-console-api@example.com,ops-console-maker@example.com,ops-console-finance@example.com,ops-console-prep@example.com,ops-console-passkey@example.com,ops-saved@example.com,ops-languages@example.com,ops-console-roles@example.com,ops-console-idle@example.com,ops-esim@example.com,ops-a2c@example.com,ops-flights@example.com,ops-console-waiting@example.com,ops-console-waiting-maker@example.com,ops-console-waiting-decider@example.com,ops-console-fresh@example.com,ops-console-phone@example.com,ops-console-context@example.com,ops-console-preview@example.com,ops-console-team@example.com,ops-console-fresh-api@example.com,ops-console-phone-maker@example.com,ops-console-support@example.com,ops-console-canned@example.com,ops-console-rolemap@example.com,ops-console-broadcast@example.com,ops-console-markup@example.com,ops-console-resellers@example.com,ops-console-resellers-prep@example.com,ops-withdraw@example.com,ops-console-axe@example.com,ops-console-axe-maker@example.com,ops-console-addresses@example.com,ops-console-routing@example.com,ops-price-levels@example.com,ops-epin-prices@example.com',
      LOG_LEVEL: 'warn',
      // A purchase the provider never settles is listed for operators after 3 s (the console's four-eyes journey).
      VTU_STUCK_AFTER_MS: '3000',
    },
  },
});
