import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web app's tests reach the typed client package by the alias the app's build uses (web/vite.config.mts).
  resolve: { alias: { '@vtu-wallet/client': fileURLToPath(new URL('./client/src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Migrates once per run; each harness starts from a copy (test/helpers/global-setup.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs file after file with the modules it has already imported (the service's module graph, PGlite's
    // compiled WebAssembly): no file changes process-wide state that outlives it (issue #31).
    isolate: false,
    reporters: ['default'],
  },
});
