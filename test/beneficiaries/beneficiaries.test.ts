import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';
import { one } from '../../src/db/client.js';
import { MAX_BENEFICIARIES } from '../../src/modules/beneficiaries/service.js';

const P = '/_serverFn/';
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 180_000);
afterAll(async () => h?.close());

const list = (u: TestUser, input: Record<string, unknown> = {}) =>
  call(h, 'GET', `${P}listBeneficiariesBearerBeneficiaries`, input, { token: u.token });
const save = (u: TestUser, input: Record<string, unknown>) =>
  call(h, 'POST', `${P}saveBeneficiaryBearerBeneficiaries`, input, { token: u.token });
const rename = (u: TestUser, input: Record<string, unknown>) =>
  call(h, 'POST', `${P}renameBeneficiaryBearerBeneficiaries`, input, { token: u.token });
const remove = (u: TestUser, id: string) => call(h, 'POST', `${P}deleteBeneficiaryBearerBeneficiaries`, { id }, { token: u.token });

describe('beneficiaries', () => {
  it('saves one of each kind, in its one written form, and lists them newest first', async () => {
    const u = await user(h);
    const cases = [
      { kind: 'phone', label: 'Mum', recipient: '+2348031234567', provider: 'MTN' },
      { kind: 'smartcard', label: 'Living room DStv', recipient: '7012345678', provider: 'dstv' },
      { kind: 'meter', label: 'Shop', recipient: '45071234567', provider: 'ikeja', meterType: 'prepaid' },
      { kind: 'betting', label: 'Tunde', recipient: 'AB12345', provider: 'bet9ja' },
      { kind: 'wallet', label: 'Ada', recipient: '@Ada_Obi' },
    ];
    for (const c of cases) {
      const res = await save(u, c);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().created).toBe(true);
    }
    const items = (await list(u)).json().items;
    expect(items.map((b: any) => [b.kind, b.recipient, b.provider])).toEqual([
      ['wallet', 'ada_obi', null],
      ['betting', 'AB12345', 'bet9ja'],
      ['meter', '45071234567', 'ikeja'],
      ['smartcard', '7012345678', 'dstv'],
      ['phone', '08031234567', 'mtn'],
    ]);
    expect(items[2].meterType).toBe('prepaid');
    expect(items.every((b: any) => b.ownNumber === false && typeof b.id === 'string')).toBe(true);
    // Filtered by kind.
    expect((await list(u, { kind: 'meter' })).json().items.map((b: any) => b.label)).toEqual(['Shop']);
  });

  it('saving the same recipient again renames it instead of adding a second one', async () => {
    const u = await user(h);
    const first = (await save(u, { kind: 'phone', label: 'Mum', recipient: '08031234567', provider: 'mtn' })).json();
    const again = await save(u, { kind: 'phone', label: 'Mother', recipient: '2348031234567', provider: 'mtn' });
    expect(again.json()).toMatchObject({ created: false, beneficiary: { id: first.beneficiary.id, label: 'Mother' } });
    // The same number on another network is another beneficiary (a ported number is bought by its network).
    expect((await save(u, { kind: 'phone', label: 'Mum Glo', recipient: '08031234567', provider: 'glo' })).json().created).toBe(true);
    expect((await list(u)).json().items).toHaveLength(2);
  });

  it('offers the verified phone first as "my number", and flags it when it is saved', async () => {
    const u = await user(h, { phone: '08051234567' });
    await save(u, { kind: 'phone', label: 'Mum', recipient: '08031234567', provider: 'mtn' });
    let items = (await list(u)).json().items;
    expect(items[0]).toMatchObject({
      id: null,
      kind: 'phone',
      recipient: '08051234567',
      provider: 'glo',
      ownNumber: true,
      label: 'My number',
    });
    expect(items).toHaveLength(2);
    // Not offered when the list is of another kind.
    expect((await list(u, { kind: 'meter' })).json().items).toEqual([]);
    // Saved: the saved entry is flagged and first, not listed twice.
    await save(u, { kind: 'phone', label: 'Me', recipient: '08051234567', provider: 'glo' });
    await save(u, { kind: 'phone', label: 'Dad', recipient: '08061234567', provider: 'mtn' });
    items = (await list(u)).json().items;
    expect(items.map((b: any) => [b.label, b.ownNumber])).toEqual([
      ['Me', true],
      ['Dad', false],
      ['Mum', false],
    ]);
    // An unverified phone is not "my number".
    const v = await user(h, { phone: '08051234568', phoneVerified: false });
    expect((await list(v)).json().items).toEqual([]);
  });

  it('renames and deletes; another customer gets 404 for both and changes nothing', async () => {
    const owner = await user(h);
    const other = await user(h);
    const b = (await save(owner, { kind: 'smartcard', label: 'GOtv', recipient: '7023456789', provider: 'gotv' })).json().beneficiary;
    for (const res of [await rename(other, { id: b.id, label: 'Mine now' }), await remove(other, b.id)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await list(owner)).json().items[0].label).toBe('GOtv');
    const renamed = await rename(owner, { id: b.id, label: '  Bedroom GOtv ' });
    expect(renamed.json().beneficiary.label).toBe('Bedroom GOtv');
    expect((await remove(owner, b.id)).json()).toEqual({ ok: true, deleted: true });
    expect((await list(owner)).json().items).toEqual([]);
    expect((await remove(owner, b.id)).statusCode).toBe(404);
  });

  it(`refuses the ${MAX_BENEFICIARIES + 1}th beneficiary, also when saves arrive together, but still renames a saved one`, async () => {
    const u = await user(h);
    const phone = (i: number) => `0803${String(1_000_000 + i).padStart(7, '0')}`;
    const results = await Promise.all(
      Array.from({ length: MAX_BENEFICIARIES + 5 }, (_, i) =>
        save(u, { kind: 'phone', label: `P${i}`, recipient: phone(i), provider: 'mtn' }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(MAX_BENEFICIARIES);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused.map((r) => r.json().error.code)).toEqual(Array(5).fill('CONFLICT'));
    expect(refused[0].json().error.message).toContain(`at most ${MAX_BENEFICIARIES}`);
    expect((await list(u)).json().items).toHaveLength(MAX_BENEFICIARIES);
    const saved = results.find((r) => r.statusCode === 200)!.json().beneficiary;
    const again = await save(u, { kind: 'phone', label: 'Renamed at the cap', recipient: saved.recipient, provider: 'mtn' });
    expect(again.statusCode).toBe(200);
    expect(again.json().created).toBe(false);
  });

  it('checks each kind and names the wrong field in words a person reads', async () => {
    const u = await user(h);
    const issuesOf = async (input: Record<string, unknown>) => {
      const res = await save(u, input);
      expect(res.statusCode).toBe(400);
      return res.json().error.issues.map((i: any) => [i.path, i.message]);
    };
    expect(await issuesOf({ kind: 'phone', label: 'X', recipient: '12345', provider: 'mtn' })).toEqual([
      ['recipient', 'Enter a Nigerian mobile number, like 08031234567'],
    ]);
    expect(await issuesOf({ kind: 'phone', label: 'X', recipient: '08031234567' })).toEqual([
      ['provider', 'Choose the network: mtn, airtel, glo, 9mobile'],
    ]);
    expect(await issuesOf({ kind: 'meter', label: 'X', recipient: '45071234567', provider: 'ikeja' })).toEqual([
      ['meterType', 'Choose the meter type: prepaid or postpaid'],
    ]);
    expect(await issuesOf({ kind: 'smartcard', label: 'X', recipient: '7012345678', provider: 'netflix' })).toEqual([
      ['provider', 'Choose the cable provider: dstv, gotv, startimes, showmax'],
    ]);
    expect(await issuesOf({ kind: 'wallet', label: 'X', recipient: 'ada', provider: 'mtn' })).toEqual([
      ['provider', 'A wallet user has no provider'],
    ]);
    expect(await issuesOf({ kind: 'phone', label: ' ', recipient: '08031234567', provider: 'mtn' })).toEqual([
      ['label', 'Enter a name for this beneficiary'],
    ]);
  });

  it('bill kinds: meter, smartcard and betting account each by their own rules; another customer gets 404; the cap counts them', async () => {
    const u = await user(h);
    const issuesOf = async (input: Record<string, unknown>) => {
      const res = await save(u, input);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.issues.map((i: any) => i.path);
    };
    const meter = { kind: 'meter', label: 'Shop', recipient: '45071234567', provider: 'ikeja', meterType: 'prepaid' };
    expect(await issuesOf({ ...meter, recipient: '4507123456' })).toEqual(['recipient']);
    expect(await issuesOf({ ...meter, recipient: '4507123456A' })).toEqual(['recipient']);
    expect(await issuesOf({ ...meter, provider: 'lagos-power' })).toEqual(['provider']);
    expect(await issuesOf({ ...meter, meterType: 'smart' })).toEqual(['meterType']);
    expect(await issuesOf({ kind: 'smartcard', label: 'TV', recipient: '701234567', provider: 'dstv' })).toEqual(['recipient']);
    expect(await issuesOf({ kind: 'smartcard', label: 'TV', recipient: '7012345678', provider: 'dstv', meterType: 'prepaid' })).toEqual([
      'meterType',
    ]);
    expect(await issuesOf({ kind: 'betting', label: 'Me', recipient: 'AB 123', provider: 'bet9ja' })).toEqual(['recipient']);
    expect(await issuesOf({ kind: 'betting', label: 'Me', recipient: 'AB', provider: 'bet9ja' })).toEqual(['recipient']);
    expect(await issuesOf({ kind: 'betting', label: 'Me', recipient: 'AB123', provider: 'Bet 9ja!' })).toEqual(['provider']);
    expect(await issuesOf({ kind: 'betting', label: 'Me', recipient: 'AB123' })).toEqual(['provider']);

    // Saved once; saved again with the other meter type it is the same meter, renamed, with the type it now has.
    const first = (await save(u, meter)).json().beneficiary;
    const again = (await save(u, { ...meter, label: 'Shop (postpaid)', meterType: 'postpaid' })).json();
    expect(again).toMatchObject({ created: false, beneficiary: { id: first.id, label: 'Shop (postpaid)', meterType: 'postpaid' } });
    await save(u, { kind: 'smartcard', label: 'TV', recipient: '7012345678', provider: 'DSTV' });
    await save(u, { kind: 'betting', label: 'Me', recipient: 'AB123', provider: 'bet9ja' });
    expect((await list(u, { kind: 'meter' })).json().items.map((b: any) => [b.recipient, b.provider, b.meterType])).toEqual([
      ['45071234567', 'ikeja', 'postpaid'],
    ]);
    expect((await list(u, { kind: 'smartcard' })).json().items.map((b: any) => b.provider)).toEqual(['dstv']);
    expect((await list(u, { kind: 'betting' })).json().items.map((b: any) => b.recipient)).toEqual(['AB123']);

    const other = await user(h);
    for (const res of [await rename(other, { id: first.id, label: 'Mine' }), await remove(other, first.id)]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await list(u, { kind: 'meter' })).json().items[0].label).toBe('Shop (postpaid)');

    // Three saved; up to the cap with phones, then a fourth bill recipient is refused while the saved meter renames.
    await h.app.services.db.execute(sql`INSERT INTO beneficiaries (id, user_id, kind, label, recipient, provider, created_at, updated_at)
      SELECT gen_random_uuid(), ${u.id}, 'phone', 'P' || i, '0803' || lpad(i::text, 7, '0'), 'mtn', now(), now()
      FROM generate_series(1, ${MAX_BENEFICIARIES - 3}) AS i`);
    const over = await save(u, { kind: 'meter', label: 'Home', recipient: '45079999999', provider: 'eko', meterType: 'prepaid' });
    expect(over.statusCode).toBe(409);
    expect((await save(u, { ...meter, label: 'Shop again' })).json().created).toBe(false);
  });

  it('closing the account forgets the saved beneficiaries', async () => {
    const u = await user(h);
    await save(u, { kind: 'wallet', label: 'Ada', recipient: 'ada_obi' });
    await h.app.services.db.transaction((tx) => h.app.services.work.change(tx).emit('account.closed', { userId: u.id }).commit());
    const left = await one<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM beneficiaries WHERE user_id = ${u.id}`);
    expect(left?.n).toBe(0);
  });
});
