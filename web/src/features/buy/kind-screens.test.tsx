// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUY_SERVICES, BUY_TABS, buyServiceOr } from '../../app/buy-services';
import { LANGUAGES } from '../../app/i18n';
import { KIND_TABS, kindLabel } from '../../app/kind-tabs';
import { en } from '../../locales/en';
import { enKinds } from '../../locales/kinds-en';
import { KIND_RESULTS } from './kind-results';
import { KIND_SCREEN_LOADERS, KIND_SCREENS } from './kind-screens';

/** The buy screen's tabs, screens and strings are found in the kinds' folders (features/buy/kinds/<kind>). */
describe("the kinds' app parts", () => {
  it('every tab found has a screen, its own place in the order, and a label in every language', async () => {
    // The first six kinds and those of issue 32 (a kind added later adds itself; these must not go missing).
    expect([...BUY_SERVICES].sort()).toEqual(
      expect.arrayContaining(['airtime', 'airtimeCash', 'betting', 'cable', 'data', 'electricity', 'esim', 'exam', 'flights', 'social']),
    );
    expect(BUY_SERVICES[0]).toBe('airtime');
    expect(new Set(BUY_TABS.map((t) => t.order)).size).toBe(BUY_TABS.length);
    expect(new Set(BUY_SERVICES).size, 'two folders declare the same service').toBe(BUY_SERVICES.length);
    let results = 0;
    for (const { service, label } of BUY_TABS) {
      expect(KIND_SCREENS[service], service).toBeDefined();
      // Each kind's code loads when its tab is shown: the module has the tab's screen (and maybe its result part).
      const screen = await KIND_SCREEN_LOADERS[service]?.();
      expect(typeof screen?.Screen, service).toBe('function');
      if (screen?.Result) results++;
      for (const { code } of LANGUAGES) expect(label[code]?.trim(), `${service} ${code}`).toBeTruthy();
    }
    expect(results).toBeGreaterThanOrEqual(3);
    // The result screen asks every kind's module for its part (none for a kind without one).
    expect(KIND_RESULTS).toHaveLength(BUY_TABS.length);
  });

  it("every tab has its tile's icon on the service grid, in its own folder (icon.svg, given to its tile by icon.css)", () => {
    // Read as files: the tests draw no stylesheet.
    const read = (kind: string, file: string) => readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'kinds', kind, file), 'utf8');
    for (const kind of KIND_TABS.keys()) {
      expect(read(kind, 'icon.css'), kind).toContain(`.service-tile[data-kind='${kind}'] {\n  --icon: url('./icon.svg');`);
      expect(read(kind, 'icon.svg'), kind).toMatch(
        /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 24 24"[^>]*><path d="M[^"]+"\/><\/svg>\n$/,
      );
    }
  });

  it("a purchase is named by its kind's tab label, found by the kind's folder (its name, the purchase's service)", () => {
    expect(kindLabel('esim', 'yo')).toBe('eSIM ìrìn àjò');
    expect(kindLabel('electricity', 'pcm')).toBe('Light (electricity)');
    expect(kindLabel('airtime', 'en')).toBe('Airtime');
    expect(kindLabel('airtime', 'ig')).toBe('Airtime');
    // A service with no app part (sold by API only) is named as written.
    expect(kindLabel('lottery', 'ha')).toBe('lottery');
  });

  it('an address naming no tab opens the first one', () => {
    expect(buyServiceOr('esim')).toBe('esim');
    expect(buyServiceOr('nonsense')).toBe('airtime');
    expect(buyServiceOr(undefined)).toBe('airtime');
  });

  it("the kinds' strings are found, and none takes a key of the first screens' strings", () => {
    expect(Object.keys(enKinds)).toEqual(expect.arrayContaining(['esim', 'social', 'flights', 'airtimeCash']));
    expect(Object.keys(enKinds).filter((k) => k in en)).toEqual([]);
  });
});
