import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The customer app (issue #19): built into dist/web and served by the service at /. The service worker is its own
// entry, emitted unhashed at /sw.js so its scope is the whole app. `npm run dev` proxies the API to the service.
const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

/**
 * index.html preloads the JavaScript every first screen needs (the app's start chunk, the i18n chunk with Preact, the
 * English strings, and the chunks they import): the browser fetches it while it parses the page, alongside the
 * entry, instead of discovering them level by level as it runs the entry (build.modulePreload below).
 */
function firstScreenPreloads(): Plugin {
  const first = /^assets\/(start|i18n|en)-[\w-]+\.js$/;
  return {
    name: 'vtu-first-screen-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const files = new Set<string>();
        const add = (file: string) => {
          const chunk = bundle[file];
          // The entry itself is index.html's script.
          if (files.has(file) || chunk?.type !== 'chunk' || chunk.isEntry) return;
          files.add(file);
          chunk.imports.forEach(add);
        };
        Object.keys(bundle)
          .filter((f) => first.test(f))
          .forEach(add);
        return [...files].map((f) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // JSX only: React Fast Refresh does not drive Preact (below), so in `npm run dev` an edited screen reloads the page.
  plugins: [react({ exclude: /./ }), firstScreenPreloads()],
  resolve: {
    alias: [
      // The typed client package (client/) from its sources: the app and any TypeScript consumer use the same client.
      { find: '@vtu-wallet/client', replacement: fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
      // The first screen's JavaScript budget (docs/scaling.md, scripts/web-budget.mjs): the code is written against
      // React's and i18next's APIs and types, and runs on Preact (10 KB gzip for React DOM's 64) and a 1 KB
      // translation lookup (for i18next's 17), in the build and in `npm run dev` alike. Every screen added later
      // (the operator console at /console included) gets the same, code-split by its route.
      { find: /^react(-dom)?$/, replacement: fileURLToPath(new URL('./src/app/react-compat.ts', import.meta.url)) },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
      { find: /^(react-)?i18next$/, replacement: fileURLToPath(new URL('./src/app/i18n-lite.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // No run-time preloading of a lazily loaded screen's chunks: Vite's helper adds one <link rel=modulepreload> per
    // chunk the screen imports, from script, in the task that loads it, and for the Buy screen's form (about 40 chunks)
    // that was its longest part (20-35 ms on this machine, Lighthouse's blocking time). The browser fetches the
    // imports as it reads each chunk instead: a screen opened the first time waits for them level by level, and
    // after that they come from the service worker's cache (sw.ts). Stylesheets are still added by the helper.
    modulePreload: false,
    rollupOptions: {
      input: {
        app: fileURLToPath(new URL('./index.html', import.meta.url)),
        sw: fileURLToPath(new URL('./src/sw.ts', import.meta.url)),
      },
      // The generated operation paths and calls (web/src/api/operations, web/src/api/calls) only declare: a chunk takes
      // the groups whose calls it makes, not every group the barrels re-export.
      treeshake: { moduleSideEffects: (id: string) => !/\/web\/src\/api\/(calls|operations)\//.test(id) },
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
