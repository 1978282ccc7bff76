import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The customer app (issue #19): built into dist/web and served by the service at /. The service worker is its own
// entry, emitted unhashed at /sw.js so its scope is the whole app. `npm run dev` proxies the API to the service.
const api = process.env.API_URL ?? 'http://127.0.0.1:3000';
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // The typed client package (client/) from its sources: the app and any TypeScript consumer use the same client.
  resolve: { alias: { '@vtu-wallet/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      input: {
        app: fileURLToPath(new URL('./index.html', import.meta.url)),
        sw: fileURLToPath(new URL('./src/sw.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/_serverFn', '/api', '/sandbox', '/docs', '/healthz', '/readyz'].map((p) => [p, { target: api, changeOrigin: false }]),
    ),
  },
});
