import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/kernel/clock.js';
import { esimAdapterC, esimOutcome, type EsimPlanEntry } from '../../src/modules/vtu/kinds/esim/adapter.js';
import { socialAdapterD, socialOutcome, type SocialServiceEntry } from '../../src/modules/vtu/kinds/social/adapter.js';
import { floatBalance } from '../../src/sandbox/vtu/engine.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { VTU_ENV } from './helpers.js';

// Provider C's eSIM endpoints and provider D's social services: the simulators answered through the kinds' adapters
// (real protocol, in-process transport), and the answers' parsing on its own.

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h.close());

let seq = 0;
const rid = () => `202611261000${Date.now().toString(36)}${(seq++).toString().padStart(4, '0')}`;
const esim = () => esimAdapterC(h.app.services.vtuProviders.c);
const social = () => socialAdapterD(h.app.services.vtuProviders.d);
const fund = (p: 'c' | 'd') => h.app.services.vtuProviders[p].fund(1_000_000_00n, `fund-${rid()}`);

describe('eSIM answers (provider C)', () => {
  const delivered = (esim: unknown) => ({
    status: 200,
    body: { code: '000', content: { transactions: { status: 'delivered', transactionId: 't1' } }, esim },
  });
  it('a delivery carries the ICCID and activation code; a delivery without the ICCID is asked again, never settled', () => {
    expect(esimOutcome(delivered({ iccid: '8923400000000000001', activation_code: 'LPA:1$x$Y', data_mb: 1024 }))).toMatchObject({
      status: 'delivered',
      details: { iccid: '8923400000000000001', activationCode: 'LPA:1$x$Y', dataMb: 1024, providerReference: 't1' },
    });
    expect(esimOutcome(delivered(undefined)).status).toBe('unknown');
    expect(esimOutcome({ status: 200, body: { code: '016' } }).status).toBe('failed');
    expect(esimOutcome({ status: 200, body: { code: '012' } }, 'requery').status).toBe('unknown');
  });
});

describe('social answers (provider D)', () => {
  it('partial is a delivery with what remains; progress rides on pending answers; a partial without remains is unknown', () => {
    expect(
      socialOutcome({ status: 200, body: { status: 'ORDER_PARTIAL', result: { start_count: 50, quantity: 1000, remains: 400 } } }),
    ).toMatchObject({
      status: 'delivered',
      details: { startCount: 50, quantity: 1000, remains: 400 },
    });
    expect(socialOutcome({ status: 200, body: { status: 'ORDER_PARTIAL', result: {} } }, 'requery').status).toBe('unknown');
    expect(socialOutcome({ status: 200, body: { status: 'ORDER_COMPLETED', result: { start_count: 5, quantity: 100 } } })).toMatchObject({
      status: 'delivered',
      details: { remains: 0 },
    });
    expect(
      socialOutcome({ status: 200, body: { status: 'ORDER_PROCESSING', result: { start_count: 5, quantity: 100, remains: 100 } } }),
    ).toMatchObject({
      status: 'pending',
      details: { remains: 100 },
    });
    expect(socialOutcome({ status: 503, body: { status: 'ORDER_PARTIAL' } }).status).toBe('unknown');
    expect(socialOutcome({ status: 200, body: { status: 'ORDER_CANCELLED' } }, 'requery').status).toBe('failed');
  });
});

describe('provider C eSIM simulator through the adapter', () => {
  it('lists destinations and plans, issues an eSIM with an LPA activation code, tops it up and reports usage', async () => {
    await fund('c');
    const regions = await esim().catalogue!('esim_regions');
    expect(regions.map((r) => r.code)).toContain('gb');
    const plans = (await esim().catalogue!('esim_plans', 'gb')) as EsimPlanEntry[];
    expect(plans.length).toBe(3);
    expect(plans.every((p) => p.region === 'gb' && p.price! > 0n && p.dataMb > 0)).toBe(true);
    const plan = plans[0];
    const requestId = rid();
    const out = await esim().purchase({
      requestId,
      service: 'esim',
      recipient: '08031234567',
      wholesale: plan.price!,
      variation: plan.code,
    });
    expect(out.status).toBe('delivered');
    const d = out.details as Record<string, any>;
    expect(d.iccid).toMatch(/^89234\d{15}$/);
    expect(d.activationCode).toMatch(/^LPA:1\$[a-z.]+\$[0-9A-F]{20}$/);
    expect((await esim().requery!(requestId)).details).toMatchObject({ iccid: d.iccid, activationCode: d.activationCode });

    expect(await esim().usage(d.iccid)).toMatchObject({ status: 'not_installed', dataTotalMb: 1024, dataUsedMb: 0 });
    const top = await esim().purchase({
      requestId: rid(),
      service: 'esim',
      recipient: d.iccid,
      phone: '08031234567',
      wholesale: plan.price!,
      variation: plans[1].code,
      inputs: { topup: true },
    });
    expect(top).toMatchObject({ status: 'delivered', details: { iccid: d.iccid } });
    h.clock.advance(20 * MINUTE);
    expect(await esim().usage(d.iccid)).toMatchObject({ status: 'active', dataTotalMb: 1024 + 3072, dataUsedMb: 200 });
    expect(await esim().usage('89234000000000000000')).toBeNull();
  });

  it('refuses a top-up of an unknown eSIM or with another destination plan; a phone ending 1111 fails before issuing', async () => {
    await fund('c');
    const plans = (await esim().catalogue!('esim_plans', 'us')) as EsimPlanEntry[];
    const unknown = await esim().purchase({
      requestId: rid(),
      service: 'esim',
      recipient: '89234000000000000000',
      phone: '08031234567',
      wholesale: plans[0].price!,
      variation: plans[0].code,
      inputs: { topup: true },
    });
    expect(unknown.status).toBe('failed');
    const failed = await esim().purchase({
      requestId: rid(),
      service: 'esim',
      recipient: '08031231111',
      wholesale: plans[0].price!,
      variation: plans[0].code,
    });
    expect(failed.status).toBe('failed');
    const pending = await esim().purchase({
      requestId: rid(),
      service: 'esim',
      recipient: '08031232222',
      wholesale: plans[0].price!,
      variation: plans[0].code,
    });
    expect(pending.status).toBe('pending');
  });
});

describe('provider D social simulator through the adapter', () => {
  it('lists services with rate and bounds; an order completes with its start count; 6464 completes part and gives the rest back to the float', async () => {
    await fund('d');
    const list = (await social().catalogue!('social_services')) as SocialServiceEntry[];
    const ig = list.find((s) => s.code === 'ig-followers')!;
    expect(ig).toMatchObject({ platform: 'instagram', kind: 'followers', rate: 250000, min: 100, max: 10_000 });
    const done = await social().purchase({
      requestId: rid(),
      service: 'social',
      recipient: 'https://instagram.com/naija_shop',
      product: 'ig-followers',
      quantity: 1000,
      wholesale: 250000n,
    });
    expect(done).toMatchObject({ status: 'delivered', details: { quantity: 1000, remains: 0 } });
    expect((done.details as any).startCount).toBeGreaterThanOrEqual(100);

    const before = await floatBalance(h.app.services.db, 'd');
    const partial = await social().purchase({
      requestId: rid(),
      service: 'social',
      recipient: 'https://instagram.com/p/shop6464',
      product: 'ig-followers',
      quantity: 1000,
      wholesale: 250000n,
    });
    expect(partial).toMatchObject({ status: 'delivered', details: { quantity: 1000, remains: 400 } });
    // The provider charged 600 of the 1,000: 1,500 naira of 2,500.
    expect(before - (await floatBalance(h.app.services.db, 'd'))).toBe(150000n);

    const pendingId = rid();
    const pending = await social().purchase({
      requestId: pendingId,
      service: 'social',
      recipient: 'https://tiktok.com/@me2222',
      product: 'ig-followers',
      quantity: 100,
      wholesale: 25000n,
    });
    expect(pending).toMatchObject({ status: 'pending', details: { remains: 100 } });
    h.clock.advance(6000);
    expect((await social().requery(pendingId)).status).toBe('delivered');
    const refused = await social().purchase({
      requestId: rid(),
      service: 'social',
      recipient: 'https://instagram.com/x',
      product: 'ig-followers',
      quantity: 10,
      wholesale: 2500n,
    });
    expect(refused.status).toBe('failed');
  });
});
