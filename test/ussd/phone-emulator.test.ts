import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectLedgerOk, type Harness } from '../helpers/harness.js';
import { VTU_ENV } from '../vtu/helpers.js';
import { caller, PIN, ussdPurchases } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => {
  await expectLedgerOk(h);
  await h.close();
});

/** A form post to the emulator page, as the browser sends it. */
const press = (form: Record<string, string>) =>
  h.app.inject({
    method: 'POST',
    url: '/sandbox/ussd',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

/** The hidden fields the page carries to the next answer. */
const carried = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]),
  );
const screenOf = (html: string) => /<div id="screen" role="status">([^<]*)<\/div>/.exec(html)?.[1] ?? '';

describe('the sandbox USSD phone', () => {
  it('dials the code and buys airtime through the real callback', async () => {
    const u = await caller(h, '08031231001');
    expect((await h.app.inject({ method: 'GET', url: '/sandbox/ussd' })).body).toContain('id="dial"');
    let page = (await press({ action: 'dial', phone: '08031231001', code: '*384*46#' })).body;
    expect(screenOf(page)).toContain('1 Balance');
    for (const answer of ['2', '1', '100', PIN]) page = (await press({ ...carried(page), action: 'send', answer })).body;
    expect(screenOf(page)).toMatch(/^Done: Airtime N100 08031231001\. Ref vtu_/);
    expect(page).toContain('Session ended.');
    expect((await ussdPurchases(h, u.id)).map((p) => p.channel)).toEqual(['ussd']);
  });
});
