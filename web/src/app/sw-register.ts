/**
 * The service worker caches the app shell (offline start) and shows web push notifications (src/sw.ts). Registered
 * when the page is idle after its load event, not in the task that draws the first screen (on a slow phone the
 * registration alone was a few milliseconds of that task, times 4 in Lighthouse).
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  const whenIdle = () =>
    'requestIdleCallback' in window ? void requestIdleCallback(register, { timeout: 3000 }) : void setTimeout(register, 500);
  // The app starts after its chunks load, which may be after the page's load event.
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
