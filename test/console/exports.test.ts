import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFile, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExport } from '../../src/modules/console/exports.js';
import { lagosRange } from '../../src/modules/console/range.js';
import { MINUTE } from '../../src/kernel/clock.js';
import { call, createHarness, grantRoles, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { user } from '../helpers/factories.js';
import { createIntent } from '../payments/helpers.js';
import { csvRecords, parseCsv } from './helpers.js';

let h: Harness;
let admin: TestUser;
let customer: TestUser;
const op = (name: string) => `/_serverFn/${name}BearerAdmin`;

async function runExport(kind: string, from: string, to: string) {
  const started = await call(h, 'POST', op('adminStartExport'), { kind, from, to }, { token: admin.token });
  expect(started.statusCode, started.body).toBe(200);
  const { jobId } = started.json();
  await h.app.services.jobs.drain();
  const job = await call(h, 'GET', op('adminGetJob'), { jobId }, { token: admin.token });
  expect(job.statusCode, job.body).toBe(200);
  return job.json();
}

async function download(url: string) {
  const u = new URL(url);
  return h.app.inject({ method: 'GET', url: u.pathname + u.search });
}

beforeAll(async () => {
  h = await createHarness();
  admin = await signIn(h, 'admin@example.com');
  customer = await user(h);
  // Ledger postings around the Lagos day 2026-03-10 (00:00 Lagos = 2026-03-09T23:00Z).
  for (const [at, naira] of [
    ['2026-03-09T22:59:59.999Z', 11], // 23:59:59.999 Lagos on the 9th: out
    ['2026-03-09T23:00:00.000Z', 22], // 00:00 Lagos on the 10th: in
    ['2026-03-10T22:59:59.999Z', 33], // 23:59:59.999 Lagos on the 10th: in
    ['2026-03-10T23:00:00.000Z', 44], // 00:00 Lagos on the 11th: out
  ] as const) {
    h.clock.set(at);
    await fundWallet(h, customer.id, naira);
  }
  h.clock.set('2026-03-10T12:00:00Z');
  customer = await signIn(h, customer.email);
  await createIntent(h, customer, 1500);
  h.clock.set('2026-03-12T09:00:00Z');
  admin = await signIn(h, 'admin@example.com');
});
afterAll(async () => h.close());

describe('CSV exports (issue 30)', () => {
  it('exports the ledger of a range of Lagos days, both days whole, and the download parses', async () => {
    const job = await runExport('ledger', '2026-03-10', '2026-03-10');
    expect(job.status).toBe('done');
    expect(job.kind).toBe('export');
    expect(job.createdBy).toBe(admin.id);
    expect(job.result.rows).toBe(4); // two postings in range, two entries each
    expect(job.progress).toEqual({ done: 4, total: 4 });
    expect(job.downloadUrl).toMatch(/\/files\/exports\/opj_[0-9A-Z]+\.csv\?expires=\d+&by=[0-9a-f-]{36}&session=[0-9a-f-]{36}&sig=/);
    const res = await download(job.downloadUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="ledger-2026-03-10-to-2026-03-10.csv"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const records = csvRecords(res.body);
    const wallet = records.filter((r) => r.user_id === customer.id).map((r) => r.amount_naira);
    expect(wallet.sort()).toEqual(['22.00', '33.00']);
    expect(records.map((r) => r.amount_naira).sort()).toEqual(['-22.00', '-33.00', '22.00', '33.00']);
    expect(records.every((r) => r.type === 'adjustment' && r.created_at.startsWith('2026-03-'))).toBe(true);
    // Lagos time (issue 44): the day's first and last instants as the business reads them.
    expect([...new Set(records.map((r) => r.created_at))].sort()).toEqual([
      '2026-03-10T00:00:00.000+01:00',
      '2026-03-10T23:59:59.999+01:00',
    ]);
    expect(parseCsv(res.body)[0]).toEqual([
      'entry_id',
      'created_at',
      'reference',
      'type',
      'description',
      'account',
      'user_id',
      'amount_naira',
      'balance_after_naira',
    ]);
  });

  it('a two-day range takes both whole days', async () => {
    const job = await runExport('ledger', '2026-03-09', '2026-03-10');
    const records = csvRecords((await download(job.downloadUrl)).body);
    expect(records.filter((r) => r.user_id === customer.id).map((r) => r.amount_naira)).toEqual(['11.00', '22.00', '33.00']);
  });

  it('exports top-ups and transactions with their own columns', async () => {
    const topups = await runExport('topups', '2026-03-10', '2026-03-10');
    const rows = csvRecords((await download(topups.downloadUrl)).body);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: customer.id, amount_naira: '1500.00', status: 'pending', processor: expect.any(String) });
    const none = await runExport('transactions', '2026-03-10', '2026-03-10');
    expect(none.result.rows).toBe(0);
    const body = (await download(none.downloadUrl)).body;
    expect(parseCsv(body)).toHaveLength(1); // the header alone
    expect(parseCsv(body)[0]?.[0]).toBe('id');
  });

  it('refuses a tampered or expired link, and answers 404 for an unknown job', async () => {
    const job = await runExport('ledger', '2026-03-10', '2026-03-10');
    const tampered = job.downloadUrl.replace(/sig=./, (m: string) => (m.endsWith('a') ? 'sig=b' : 'sig=a'));
    expect((await download(tampered)).statusCode).toBe(403);
    const other = await runExport('ledger', '2026-03-09', '2026-03-09');
    // One job's signature does not open another job's file.
    const swapped = job.downloadUrl.replace(/opj_[0-9A-Z]+/, other.id);
    expect((await download(swapped)).statusCode).toBe(403);
    h.clock.advance(6 * MINUTE);
    const expired = await download(job.downloadUrl);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.message).toContain('expired');
    // adminGetJob signs a fresh link on every read.
    const again = await call(h, 'GET', op('adminGetJob'), { jobId: job.id }, { token: admin.token });
    expect((await download(again.json().downloadUrl)).statusCode).toBe(200);
    expect((await call(h, 'GET', op('adminGetJob'), { jobId: 'opj_NOPE' }, { token: admin.token })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: '/files/exports/../../etc/passwd' })).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('a link opens the file only while its operator holds a role that exports: revoked within the 5 minutes, refused (issue 41)', async () => {
    const finance = await signIn(h);
    const granted = await call(h, 'POST', op('adminGrantRole'), { email: finance.email, role: 'finance' }, { token: admin.token });
    expect(granted.statusCode, granted.body).toBe(200);
    const started = await call(
      h,
      'POST',
      op('adminStartExport'),
      { kind: 'ledger', from: '2026-03-10', to: '2026-03-10' },
      { token: finance.token },
    );
    expect(started.statusCode, started.body).toBe(200);
    await h.app.services.jobs.drain();
    const { jobId } = started.json();
    const link = (await call(h, 'GET', op('adminGetJob'), { jobId }, { token: finance.token })).json().downloadUrl as string;
    const adminLink = (await call(h, 'GET', op('adminGetJob'), { jobId }, { token: admin.token })).json().downloadUrl as string;
    expect((await download(link)).statusCode).toBe(200);
    // Another operator's name on the link breaks its signature.
    expect((await download(link.replace(`by=${finance.id}`, `by=${admin.id}`))).statusCode).toBe(403);
    const revoked = await call(h, 'POST', op('adminRevokeRole'), { userId: finance.id, role: 'finance' }, { token: admin.token });
    expect(revoked.statusCode, revoked.body).toBe(200);
    h.clock.advance(MINUTE);
    const refused = await download(link);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('no longer holds a role');
    // The file is still there for an operator who holds the role: the admin's own link opens it.
    expect((await download(adminLink)).statusCode).toBe(200);
  });

  it('a link dies with the session it was made for', async () => {
    const finance = await signIn(h);
    const granted = await call(h, 'POST', op('adminGrantRole'), { email: finance.email, role: 'finance' }, { token: admin.token });
    expect(granted.statusCode, granted.body).toBe(200);
    const job = await runExport('ledger', '2026-03-10', '2026-03-10');
    const link = (await call(h, 'GET', op('adminGetJob'), { jobId: job.id }, { token: finance.token })).json().downloadUrl as string;
    expect((await download(link)).statusCode).toBe(200);
    expect((await call(h, 'POST', '/_serverFn/signOutBearerAuth', {}, { token: finance.token })).statusCode).toBe(200);
    const refused = await download(link);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('session');
    expect((await download(job.downloadUrl)).statusCode).toBe(200);
  });

  it('validates ranges: real dates, from before to, at most 366 days', async () => {
    const bad = async (input: Record<string, unknown>) =>
      (await call(h, 'POST', op('adminStartExport'), input, { token: admin.token })).json().error;
    expect((await bad({ kind: 'ledger', from: '2026-02-30', to: '2026-03-01' })).code).toBe('VALIDATION_FAILED');
    expect((await bad({ kind: 'ledger', from: '2026-03-10', to: '2026-03-09' })).message).toContain('before');
    expect((await bad({ kind: 'ledger', from: '2025-01-01', to: '2026-03-01' })).message).toContain('366');
    expect((await bad({ kind: 'wallets', from: '2026-03-01', to: '2026-03-01' })).code).toBe('VALIDATION_FAILED');
  });

  it('lists jobs newest first for every operator, filtered by kind', async () => {
    const other = await signIn(h, 'admin@example.com');
    const list = await call(h, 'GET', op('adminListJobs'), { kind: 'export', limit: 2 }, { token: other.token });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json();
    expect(body.items).toHaveLength(2);
    expect(body.hasMore).toBe(true);
    expect(body.items.every((j: { kind: string }) => j.kind === 'export')).toBe(true);
    expect(body.items[0].createdAt >= body.items[1].createdAt).toBe(true);
  });

  it('the audit log: admins export it, a finance operator neither starts one nor sees its link; support exports nothing', async () => {
    const finance = await signIn(h);
    const support = await signIn(h);
    await grantRoles(
      h,
      [
        [finance, 'finance'],
        [support, 'support'],
      ],
      admin,
    );
    const job = await runExport('audit', '2026-03-12', '2026-03-12');
    expect(job.status).toBe('done');
    const records = csvRecords((await download(job.downloadUrl)).body);
    const exports = records.filter((r) => r.operation === 'adminStartExport');
    expect(exports.length).toBeGreaterThan(0);
    expect(exports[0]).toMatchObject({ operator_email: 'admin@example.com', outcome: 'ok' });
    expect(records.every((r) => r.created_at.startsWith('2026-03-1'))).toBe(true);
    // Finance: ledger exports yes, the audit log no, and no link to the admin's audit file.
    const refused = await call(
      h,
      'POST',
      op('adminStartExport'),
      { kind: 'audit', from: '2026-03-12', to: '2026-03-12' },
      { token: finance.token },
    );
    expect(refused.statusCode).toBe(403);
    const allowed = await call(
      h,
      'POST',
      op('adminStartExport'),
      { kind: 'ledger', from: '2026-03-12', to: '2026-03-12' },
      { token: finance.token },
    );
    expect(allowed.statusCode, allowed.body).toBe(200);
    const seen = await call(h, 'GET', op('adminGetJob'), { jobId: job.id }, { token: finance.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().downloadUrl).toBeUndefined();
    // Jobs are every finance operator's to see: the admin's ledger job is listed with its link.
    const listed = await call(h, 'GET', op('adminListJobs'), { kind: 'export', limit: 100 }, { token: finance.token });
    const items = listed.json().items as { input: { kind: string }; downloadUrl?: string; createdBy: string }[];
    expect(items.some((j) => j.input.kind === 'ledger' && j.createdBy === admin.id && j.downloadUrl)).toBe(true);
    expect(items.filter((j) => j.input.kind === 'audit').every((j) => j.downloadUrl === undefined)).toBe(true);
    // Support sees the dashboard, not jobs or exports.
    expect((await call(h, 'GET', op('adminDashboardQueues'), {}, { token: support.token })).statusCode).toBe(200);
    expect((await call(h, 'GET', op('adminListJobs'), {}, { token: support.token })).statusCode).toBe(403);
    const noExport = await call(
      h,
      'POST',
      op('adminStartExport'),
      { kind: 'ledger', from: '2026-03-12', to: '2026-03-12' },
      { token: support.token },
    );
    expect(noExport.statusCode).toBe(403);
    await h.app.services.jobs.drain();
  });

  it('writes page by page, reporting progress after each page', async () => {
    const file = path.join(tmpdir(), `export-test-${randomUUID()}.csv`);
    const seen: [number, number][] = [];
    const range = lagosRange({ from: '2026-03-09', to: '2026-03-10' }, h.clock.now(), 366);
    try {
      const out = await writeExport(h.app.services.db, 'ledger', range, file, async (d, t) => void seen.push([d, t]), 2);
      expect(out.rows).toBe(6);
      expect(seen.map(([d]) => d)).toEqual([0, 2, 4, 6, 6, 6]);
      expect(seen.at(-1)).toEqual([6, 6]);
      expect(csvRecords(await readFile(file, 'utf8'))).toHaveLength(6);
    } finally {
      await rm(file, { force: true });
    }
  });

  it("deletes an export's file after 7 days; the job stays, marked expired, without a link", async () => {
    const job = await runExport('topups', '2026-03-10', '2026-03-10');
    expect((await download(job.downloadUrl)).statusCode).toBe(200);
    h.clock.advance(8 * 24 * 60 * MINUTE);
    admin = await signIn(h, 'admin@example.com');
    const link = (await call(h, 'GET', op('adminGetJob'), { jobId: job.id }, { token: admin.token })).json().downloadUrl;
    await h.app.services.jobs.enqueue(h.app.services.db, 'console.exports-cleanup', {});
    await h.app.services.jobs.drain();
    const after = await call(h, 'GET', op('adminGetJob'), { jobId: job.id }, { token: admin.token });
    expect(after.statusCode).toBe(200);
    expect(after.json().status).toBe('done');
    expect(after.json().result).toMatchObject({ rows: 1, expired: true });
    expect(after.json().downloadUrl).toBeUndefined();
    expect((await download(link)).statusCode).toBe(404);
  });
});
