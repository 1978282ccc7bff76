import { registerServiceWorker } from './app/sw-register';

/**
 * The entry is tiny on purpose: index.html paints its splash at once, and the app (Preact with React's API, Mantine
 * and its styles, i18n) loads as one chunk that replaces the splash when it starts. Nothing here blocks the first paint.
 */
void Promise.all([import('./app/start'), import('./app/i18n').then((m) => m.initI18n())]).then(([{ start }]) => {
  start(document.getElementById('root')!);
  registerServiceWorker();
});
