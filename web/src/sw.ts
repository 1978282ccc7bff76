/// <reference lib="webworker" />
/**
 * The service worker: caches the app shell so the app opens offline, shows web push notifications and
 * opens the right screen when one is tapped. It never caches API answers: the offline view's balance comes from
 * the app's own small snapshot, and nothing personal is kept here.
 */
declare const self: ServiceWorkerGlobalScope;

const SHELL = 'shell-v1';
const API = /^\/(_serverFn|api|sandbox|docs|healthz|readyz|metrics)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      const html = await (await fetch('/index.html', { cache: 'no-store' })).text();
      // The shell: the page and every script and stylesheet it references (hashed names, immutable).
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      await cache.put('/', new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
      await cache.addAll([...new Set(assets), '/manifest.webmanifest', '/icon.svg', '/icon-192.png']);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== SHELL) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || API.test(url.pathname)) return;
  if (event.request.mode === 'navigate') {
    // Network first for pages (fresh deploys), the cached shell when offline.
    event.respondWith(fetch(event.request).catch(async () => (await caches.match('/')) ?? Response.error()));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed assets never change: cache first; code-split chunks are cached as they are first loaded.
    event.respondWith(
      (async () => {
        const hit = await caches.match(event.request);
        if (hit) return hit;
        const res = await fetch(event.request);
        if (res.ok) (await caches.open(SHELL)).put(event.request, res.clone());
        return res;
      })(),
    );
  }
});

interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  data?: { url?: string };
}

self.addEventListener('push', (event) => {
  let payload: PushPayload;
  try {
    payload = event.data?.json() ?? {};
  } catch {
    payload = { body: event.data?.text() };
  }
  const url = payload.url ?? payload.data?.url ?? '/notifications';
  event.waitUntil(
    self.registration.showNotification(payload.title ?? 'VTU Wallet', { body: payload.body ?? '', icon: '/icon-192.png', data: { url } }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data as { url?: string } | null)?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(target);
      } else await self.clients.openWindow(target);
    })(),
  );
});

export {};
