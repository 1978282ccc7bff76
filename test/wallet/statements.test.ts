import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from '../../src/db/client.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, usingPostgres, type Harness, type TestUser } from '../helpers/harness.js';
import { buyer, PIN, walletBalance } from '../helpers/factories.js';
import { parseCsv, pdfFontNames, pdfText } from '../helpers/statement-files.js';
import { mtn, VTU_ENV } from '../vtu/helpers.js';

/** Issue 43: the history's range and search (listWalletActivity, listMyVtuTransactions) and getStatement (CSV, PDF). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: VTU_ENV });
});
afterAll(async () => h?.close());

const W = '/_serverFn/listWalletActivityBearerWallet';
const P = '/api/v1/listMyVtuTransactions';
const S = '/_serverFn/getStatementBearerWallet';
const get = (u: TestUser, url: string, q: Record<string, unknown>) => call(h, 'GET', url, q, { token: u.token });
const debit = (u: TestUser, amount: number, note: string) =>
  call(h, 'POST', '/_serverFn/debitWalletFnBearerWallet', { amount, note, pin: PIN }, { token: u.token });

/** Moves the clock, and signs the customer in again (a token lives minutes, the clock jumps days). */
async function at(u: TestUser, iso: string) {
  h.clock.set(iso);
  u.token = (await signIn(h, u.email)).token;
}

/** A customer with lines on three Lagos days: funded on the 10th, airtime on the 12th, a debit on the 14th (January 2026). */
async function history(): Promise<{ u: TestUser; phone: string; purchaseRef: string; debitRef: string }> {
  h.clock.set('2026-01-09T23:30:00Z'); // 00:30 on the 10th in Lagos
  const u = await buyer(h, 5000);
  await at(u, '2026-01-12T10:00:00Z');
  const phone = mtn(String(1000 + Math.floor(Math.random() * 8999)));
  const bought = await call(h, 'POST', '/api/v1/buyAirtime', { network: 'mtn', phone, amount: 500, pin: PIN }, { token: u.token });
  expect(bought.statusCode).toBe(200);
  await at(u, '2026-01-14T22:59:00Z'); // 23:59 on the 14th in Lagos
  const d = await debit(u, 100, '=HYPERLINK("http://evil")');
  expect(d.statusCode).toBe(200);
  await at(u, '2026-01-20T09:00:00Z');
  return { u, phone, purchaseRef: bought.json().transaction.reference, debitRef: d.json().reference };
}

describe('history: range and search', () => {
  it('listWalletActivity narrows by Lagos days and by reference, recipient or words, page by page', async () => {
    const { u, phone, debitRef } = await history();
    const all = await get(u, W, {});
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((i: { kind: string }) => i.kind)).toEqual(['wallet_debit', 'purchase', 'adjustment']);
    const day12 = await get(u, W, { from: '2026-01-12', to: '2026-01-12' });
    expect(day12.json().items).toHaveLength(1);
    expect(day12.json().items[0]).toMatchObject({ kind: 'purchase', params: { service: 'airtime', recipient: phone } });
    // 23:59 Lagos on the 14th is the 14th, though it is 22:59 UTC; 00:30 Lagos on the 10th is the 10th.
    expect((await get(u, W, { from: '2026-01-14', to: '2026-01-14' })).json().items[0].reference).toBe(debitRef);
    expect((await get(u, W, { from: '2026-01-10', to: '2026-01-10' })).json().items).toHaveLength(1);
    expect((await get(u, W, { from: '2026-01-15', to: '2026-01-19' })).json().items).toEqual([]);
    expect((await get(u, W, { q: phone.slice(-6) })).json().items.map((i: { kind: string }) => i.kind)).toEqual(['purchase']);
    expect((await get(u, W, { q: debitRef.toUpperCase() })).json().items).toHaveLength(1);
    expect((await get(u, W, { q: 'hyperlink' })).json().items).toHaveLength(1);
    expect((await get(u, W, { q: '100%_' })).json().items).toEqual([]);
    const first = (await get(u, W, { limit: 2 })).json();
    expect(first).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    const second = (await get(u, W, { limit: 2, offset: 2 })).json();
    expect(second).toMatchObject({ hasMore: false, items: [{ kind: 'adjustment' }] });
  });

  it('listMyVtuTransactions narrows by Lagos days and by reference, recipient or service words', async () => {
    const { u, phone, purchaseRef } = await history();
    expect((await get(u, P, { from: '2026-01-12', to: '2026-01-12' })).json().items).toHaveLength(1);
    expect((await get(u, P, { from: '2026-01-13', to: '2026-01-31' })).json().items).toEqual([]);
    expect((await get(u, P, { q: phone })).json().items[0].reference).toBe(purchaseRef);
    expect((await get(u, P, { q: purchaseRef.slice(-8) })).json().items).toHaveLength(1);
    expect((await get(u, P, { q: 'AIRTIME' })).json().items).toHaveLength(1);
    expect((await get(u, P, { q: 'electricity' })).json().items).toEqual([]);
  });

  it('refuses a reversed range, one over 366 days, a date that is not one and a long search, saying which', async () => {
    const u = await buyer(h, 0);
    for (const url of [W, P, S]) {
      const fmt = url === S ? { format: 'csv' } : {};
      const reversed = await get(u, url, { ...fmt, from: '2026-02-01', to: '2026-01-31' });
      expect(reversed.statusCode, url).toBe(400);
      expect(reversed.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: '`to` is before `from`' });
      const long = await get(u, url, { ...fmt, from: '2025-01-01', to: '2026-01-02' });
      expect(long.statusCode).toBe(400);
      expect(long.json().error.message).toBe('A range covers at most 366 days (this one covers 367)');
      expect((await get(u, url, { ...fmt, from: '2024-01-01', to: '2024-12-31' })).statusCode).toBe(200); // a leap year: 366 days
      const bad = await get(u, url, { ...fmt, from: '2026-02-30', to: '2026-03-01' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.issues[0]).toMatchObject({ path: 'from', message: 'Not a calendar date' });
    }
    expect((await get(u, W, { q: 'x'.repeat(61) })).json().error.issues[0]).toMatchObject({
      path: 'q',
      message: 'Search at most 60 characters',
    });
    expect((await get(u, S, { format: 'xls', from: '2026-01-01', to: '2026-01-02' })).json().error.issues[0].path).toBe('format');
    expect((await get(u, S, { format: 'csv', from: '2026-01-01' })).json().error.issues[0].path).toBe('to');
  });
});

/** The statement's heading values by their label, and its lines. */
function csvStatement(body: string) {
  const rows = parseCsv(body);
  const blank = rows.findIndex((r) => r.length === 1 && r[0] === '');
  const head = new Map(rows.slice(1, blank).map((r) => [r[0], r[1]]));
  return { title: rows[0][0], head, columns: rows[blank + 1], lines: rows.slice(blank + 2) };
}
const kobo = (s: string) => BigInt(s.replace('.', ''));

describe('getStatement', () => {
  it('is a CSV in the saved language whose opening and closing balances reconcile with its lines and the ledger', async () => {
    const { u, phone } = await history();
    await h.app.services.db.execute(sql`UPDATE users SET full_name = ${'=HYPERLINK("http://evil")'} WHERE id = ${u.id}`);
    const res = await get(u, S, { format: 'csv', from: '2026-01-11', to: '2026-01-14' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="statement-2026-01-11-to-2026-01-14.csv"');
    const s = csvStatement(res.body);
    expect(s.title).toBe('Wallet statement');
    expect(s.head.get('Period')).toBe('11/01/2026 - 14/01/2026');
    // A cell a spreadsheet would run as a formula is defused as the console's exports do it.
    expect(s.head.get('Account name')).toBe(`'=HYPERLINK("http://evil")`);
    expect(s.head.get('Opening balance')).toBe('5000.00');
    expect(s.head.get('Closing balance')).toBe('4400.00');
    expect(s.head.get('Money out')).toBe('600.00');
    expect(s.columns).toEqual(['Date (Lagos time)', 'Details', 'Reference', 'Amount (NGN)', 'Balance (NGN)']);
    expect(s.lines).toHaveLength(2);
    expect(s.lines[0]).toMatchObject(['12/01/2026 11:00', `Airtime for ${phone}`, expect.any(String), '-500.00', '4500.00']);
    expect(s.lines[1]).toMatchObject([
      '14/01/2026 23:59',
      `Wallet debit: =HYPERLINK("http://evil")`,
      expect.any(String),
      '-100.00',
      '4400.00',
    ]);

    expect((await call(h, 'POST', '/_serverFn/updatePreferencesBearerSettings', { language: 'ha' }, { token: u.token })).statusCode).toBe(
      200,
    );
    const ha = csvStatement((await get(u, S, { format: 'csv', from: '2026-01-10', to: '2026-01-20' })).body);
    expect(ha.title).toBe('Bayanin asusun walat');
    expect(ha.head.get('Ragowar farko')).toBe('0.00');
    expect(ha.head.get('Ragowar ƙarshe')).toBe('4400.00');
    expect(ha.lines[1][1]).toMatch(new RegExp(` don ${phone}$`));
    expect(ha.lines).toHaveLength(3);
  });

  it('is a PDF with the same figures, in every letter of a Yoruba or Hausa name (an embedded Unicode font)', async () => {
    const { u } = await history();
    const name = 'Ọláyínká Ṣẹ̀gun Ɗanƙwambo Ɓalarabe';
    await h.app.services.db.execute(sql`UPDATE users SET full_name = ${name} WHERE id = ${u.id}`);
    expect((await call(h, 'POST', '/_serverFn/updatePreferencesBearerSettings', { language: 'yo' }, { token: u.token })).statusCode).toBe(
      200,
    );
    const res = await h.app.inject({
      method: 'GET',
      url: `${S}?format=pdf&from=2026-01-01&to=2026-01-31`,
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="statement-2026-01-01-to-2026-01-31.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // DejaVu Sans, regular and bold, embedded (pdf-lib tags each with a number); no standard font. Subsets: the two
    // font files are 1.4 MB.
    expect((await pdfFontNames(res.rawPayload)).sort()).toEqual([
      expect.stringMatching(/^DejaVuSans-\d+$/),
      expect.stringMatching(/^DejaVuSans-Bold-\d+$/),
    ]);
    expect(res.rawPayload.length).toBeLessThan(60_000);
    const text = await pdfText(res.rawPayload);
    // Every letter as written: Yoruba's dots below and tones, Hausa's hooked letters.
    expect(text).toContain(name.normalize('NFC'));
    expect(text).toContain('Àkọsílẹ̀ àpamọ́wọ́'.normalize('NFC'));
    expect(text).toContain('NGN 4,400.00');
    expect(text).toContain('-500.00');
    expect(text).toContain('Ojú ìwé 1 / 1');
  });

  it(`reconciles with the ledger while money moves on the wallet (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, async () => {
    h.clock.set('2026-02-20T12:00:00Z');
    const u = await buyer(h, 3000);
    await at(u, '2026-03-10T12:00:00Z');
    const statements: Promise<Awaited<ReturnType<typeof get>>>[] = [];
    const moves: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      moves.push(debit(u, 50 + i, `debit ${i}`));
      moves.push(fundWallet(h, u.id, 10 + i));
      if (i % 4 === 0) statements.push(get(u, S, { format: 'csv', from: '2026-03-01', to: '2026-03-10' }));
    }
    await Promise.all(moves);
    statements.push(get(u, S, { format: 'csv', from: '2026-03-01', to: '2026-03-10' }));
    for (const res of await Promise.all(statements)) {
      expect(res.statusCode).toBe(200);
      const s = csvStatement(res.body);
      const opening = kobo(s.head.get('Opening balance')!);
      let running = opening;
      for (const l of s.lines) {
        running += kobo(l[3]);
        expect(kobo(l[4])).toBe(running);
      }
      expect(kobo(s.head.get('Closing balance')!)).toBe(running);
    }
    // The last one, after everything: closing is the ledger's balance; opening its entries before the period.
    const last = csvStatement((await statements.at(-1))!.body);
    expect(kobo(last.head.get('Closing balance')!)).toBe(BigInt(Math.round((await walletBalance(h, u.id)) * 100)));
    const before = await one<{ s: string }>(
      h.app.services.db,
      sql`SELECT COALESCE(sum(e.amount), 0)::text AS s FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
          WHERE a.code = ${`user:${u.id}:wallet`} AND e.created_at < ${new Date('2026-02-28T23:00:00Z')}`,
    );
    expect(kobo(last.head.get('Opening balance')!)).toBe(BigInt(before!.s));
    expect(last.head.get('Opening balance')).toBe('3000.00');
    await expectLedgerOk(h);
  });
});
