import { firstScreenNeedsRouter } from './app/session-hint';
import { registerServiceWorker } from './app/sw-register';

/**
 * The entry is tiny on purpose: index.html paints its splash at once, and the app (Preact with React's API, Mantine
 * and the first screens' styles, i18n) loads as one chunk that replaces the splash when it starts. Nothing here blocks
 * the first paint. Evaluating the app's modules, drawing the providers and drawing the first screen (App.tsx) run as
 * separate tasks, not one long one (a phone's main thread answers a tap in between; Lighthouse's total blocking time
 * counts each task's time over 50 ms).
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
// The routes load with the app when the first screen needs them (App.tsx; not the sign-in screen at /).
if (firstScreenNeedsRouter()) void import('./app/routed');
void Promise.all([import('./app/start'), import('./app/i18n').then((m) => m.initI18n())]).then(async ([{ start }]) => {
  await nextTask();
  start(document.getElementById('root')!);
  registerServiceWorker();
});
