/** The service worker caches the app shell (offline start) and shows web push notifications (src/sw.ts). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // The app starts after its chunks load, which may be after the page's load event: register at once then.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
