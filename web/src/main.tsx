import { firstScreenNeedsRouter } from './app/session-hint';
import { registerServiceWorker } from './app/sw-register';

/**
 * The entry is tiny on purpose: index.html paints its splash at once, and the app (Preact with React's API, Mantine
 * and the first screens' styles, i18n) loads as one chunk that replaces the splash when it starts. Nothing here blocks
 * the first paint. Evaluating the app's modules, drawing the providers and drawing the first screen (App.tsx) run as
 * separate tasks, not one long one (a phone's main thread answers a tap in between; Lighthouse's total blocking time
 * counts each task's time over 50 ms).
 */
// The splash in the language saved on this device (issue 43): the page paints it in English before any script runs.
const SPLASH: Record<string, string> = {
  ha: 'Katin waya, data, talabijin na kebul, wutar lantarki da ƙari, ana biya daga walat ɗinka cikin daƙiƙu.',
  pcm: 'Airtime, data, cable TV, light bill and more, pay from your wallet sharp sharp.',
  yo: 'Káàdì ìpè, data, tẹlifíṣọ̀n kébù, iná mànàmáná àti bẹ́ẹ̀ bẹ́ẹ̀ lọ, tí o ń san láti inú àpamọ́wọ́ rẹ ní ìṣẹ́jú àáyá.',
};
// Before any choice, the phone's own language (as app/i18n.ts savedLanguage).
const saved =
  localStorage.getItem('vtu.language') ?? navigator.languages.map((l) => l.split('-')[0].toLowerCase()).find((l) => l in SPLASH) ?? '';
const splashText = document.querySelector('#splash p');
if (SPLASH[saved] && splashText) {
  splashText.textContent = SPLASH[saved];
  document.documentElement.lang = saved;
}
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
// The routes load with the app when the first screen needs them (App.tsx; not the sign-in screen at /).
if (firstScreenNeedsRouter()) void import('./app/routed');
void Promise.all([import('./app/start'), import('./app/i18n').then((m) => m.initI18n())]).then(async ([{ start }]) => {
  await nextTask();
  start(document.getElementById('root')!);
  registerServiceWorker();
});
