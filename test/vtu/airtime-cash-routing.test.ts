import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { airtimeCashRouting } from '../../src/modules/vtu/kinds/airtime-cash/routing.js';
import { buildApp } from '../../src/services.js';

/** Airtime-to-cash is routed by VTU_ROUTING (key airtime_cash) like the kinds, to providers with its adapter only. */
const load = (routing?: string) => loadConfig({ NODE_ENV: 'test', ...(routing ? { VTU_ROUTING: routing } : {}) });
/** The start's refusal: the VTU module checks its routing when the app is built, before the database is opened. */
async function refusal(routing: string): Promise<string> {
  const err = await buildApp({ config: load(routing) }).then(
    async (app) => {
      await app.close();
      throw new Error(`VTU_ROUTING=${routing} was accepted`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return (err as Error).message;
}

describe('VTU_ROUTING: airtime_cash', () => {
  it('defaults to provider C and accepts a routing naming it', () => {
    expect(airtimeCashRouting(load().vtu.routing)).toEqual(['c']);
    expect(airtimeCashRouting(load('{"airtime_cash":["c"],"data":["b","a"]}').vtu.routing)).toEqual(['c']);
  });

  it('refuses at start a provider without an airtime-to-cash adapter, naming the setting', async () => {
    expect(await refusal('{"airtime_cash":["d"]}')).toBe(
      'Invalid configuration:\n  VTU_ROUTING: airtime_cash names provider D, which has no airtime-to-cash adapter (only C)',
    );
    expect(await refusal('{"airtime_cash":["c","a"]}')).toMatch(
      /VTU_ROUTING: airtime_cash names provider A, which has no airtime-to-cash adapter/,
    );
  });

  it('refuses the key spelled as the module or the folder, naming the right one', async () => {
    expect(await refusal('{"airtimeCash":["c"]}')).toMatch(/VTU_ROUTING: airtime-to-cash's key is "airtime_cash", not "airtimeCash"/);
    expect(await refusal('{"airtime-cash":["c"]}')).toMatch(/not "airtime-cash"/);
  });
});
