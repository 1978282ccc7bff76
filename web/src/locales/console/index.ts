import { common } from './common';

/**
 * The operator console's strings (issue 44), English first: one module per screen or area in this folder,
 * gathered here under `console.`. They load with the console's chunk (app/i18n.ts, loadConsoleStrings) and are added
 * to whichever language is chosen, so an operator reading Hausa sees the console in English until it is translated.
 */
export const enConsole = {
  console: {
    common,
  },
};
