import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rows } from '../../src/db/client.js';
import { buildApp } from '../../src/services.js';
import { createLogger } from '../../src/lib/logger.js';
import { nextSlot } from '../../src/modules/schedules/slots.js';
import { call, createHarness, expectLedgerOk, fundWallet, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { setKycTier } from '../helpers/factories.js';

const P = '/_serverFn/';
let h: Harness;
/** A second app (own services and job queue) on the same database: a second worker. */
let worker2: FastifyInstance;

beforeAll(async () => {
  h = await createHarness({ env: { VTU_PROVIDER_TIMEOUT_MS: '5000', VTU_SANDBOX_SLOW_MS: '60' } });
  worker2 = await buildApp({
    config: h.config,
    database: h.database,
    clock: h.clock,
    skipMigrations: true,
    log: createLogger({ level: 'silent' }),
  });
  await worker2.ready();
});
afterAll(async () => {
  await worker2?.close();
  await h?.close();
});

async function user(naira = 10_000) {
  const u = await signIn(h);
  await h.app.services.pins.set(u.id, 'transaction', '1234');
  await setKycTier(h, u.id, 1);
  if (naira) await fundWallet(h, u.id, naira);
  return u;
}
const upsert = (u: TestUser, input: Record<string, unknown>) =>
  call(
    h,
    'POST',
    `${P}upsertScheduleBearerSchedules`,
    { service: 'airtime', network: 'mtn', phone: '08031234567', amount: 200, frequency: 'daily', time: '11:30', pin: '1234', ...input },
    { token: u.token },
  );
const balance = async (u: TestUser) => Number((await h.app.services.ledger.userBalances(h.app.services.db, u.id)).wallet) / 100;
const runsOf = (scheduleId: string) =>
  rows<{ status: string; error_code: string | null; slot: Date }>(
    h.app.services.db,
    sql`SELECT status, error_code, slot FROM schedule_runs WHERE schedule_id = ${scheduleId} ORDER BY slot`,
  );
const vtuCount = async (u: TestUser) =>
  (await rows<{ n: number }>(h.app.services.db, sql`SELECT count(*)::int AS n FROM vtu_transactions WHERE user_id = ${u.id}`))[0].n;

/** Moves time to `iso` and lets the workers do what they do every minute. */
async function runWorkersAt(iso: string) {
  h.clock.set(iso);
  await Promise.all([h.app.services.jobs.tickCrons(), worker2.services.jobs.tickCrons()]);
  await Promise.all([h.app.services.jobs.drain(), worker2.services.jobs.drain()]);
}

describe('slot arithmetic (Africa/Lagos)', () => {
  it('daily, weekly and monthly slots', () => {
    // 2026-01-15 is a Thursday; 09:00Z is 10:00 in Lagos.
    const now = new Date('2026-01-15T09:00:00Z');
    expect(nextSlot({ frequency: 'daily', time: '11:30' }, now).toISOString()).toBe('2026-01-15T10:30:00.000Z');
    expect(nextSlot({ frequency: 'daily', time: '10:00' }, now).toISOString()).toBe('2026-01-16T09:00:00.000Z');
    expect(nextSlot({ frequency: 'daily', time: '00:30' }, new Date('2026-01-15T23:10:00Z')).toISOString()).toBe(
      '2026-01-15T23:30:00.000Z',
    );
    expect(nextSlot({ frequency: 'weekly', time: '08:00', dayOfWeek: 1 }, now).toISOString()).toBe('2026-01-19T07:00:00.000Z');
    expect(nextSlot({ frequency: 'weekly', time: '11:00', dayOfWeek: 4 }, now).toISOString()).toBe('2026-01-15T10:00:00.000Z');
    expect(nextSlot({ frequency: 'weekly', time: '09:00', dayOfWeek: 4 }, now).toISOString()).toBe('2026-01-22T08:00:00.000Z');
    expect(nextSlot({ frequency: 'monthly', time: '09:00', dayOfMonth: 31 }, new Date('2026-02-01T00:00:00Z')).toISOString()).toBe(
      '2026-02-28T08:00:00.000Z',
    );
    expect(nextSlot({ frequency: 'monthly', time: '09:00', dayOfMonth: 15 }, now).toISOString()).toBe('2026-02-15T08:00:00.000Z');
    expect(nextSlot({ frequency: 'monthly', time: '09:00', dayOfMonth: 1 }, new Date('2026-12-20T00:00:00Z')).toISOString()).toBe(
      '2027-01-01T08:00:00.000Z',
    );
  });
});

describe('schedules', () => {
  it('validates when saving: PIN, network prefix, recurrence fields, data plan and price', async () => {
    const u = await user();
    expect((await upsert(u, { pin: '9999' })).json().error.code).toBe('INVALID_PIN');
    const mismatch = await upsert(u, { network: 'airtel' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.code).toBe('NETWORK_MISMATCH');
    expect((await upsert(u, { frequency: 'weekly' })).json().error.issues[0].path).toBe('dayOfWeek');
    expect((await upsert(u, { time: '25:00' })).statusCode).toBe(400);
    expect((await upsert(u, { amount: 20 })).statusCode).toBe(400);
    expect((await upsert(u, { service: 'data' })).json().error.issues[0].path).toBe('planId');
    expect((await upsert(u, { service: 'data', planId: 'no-such-plan' })).statusCode).toBe(400);
    const plan = (await h.app.services.vtu.dataPlans('mtn'))[0];
    expect((await upsert(u, { service: 'data', planId: plan.plan_id, amount: plan.price + 1 })).json().error.code).toBe('PRICE_CHANGED');
    const ok = await upsert(u, {
      service: 'data',
      planId: plan.plan_id,
      amount: plan.price,
      frequency: 'monthly',
      dayOfMonth: 31,
      time: '07:00',
      label: 'Mum data',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      created: true,
      schedule: { service: 'data', planId: plan.plan_id, frequency: 'monthly', dayOfMonth: 31, active: true, label: 'Mum data' },
    });
  });

  it('runs a due slot once with two workers, through the VTU purchase path', async () => {
    h.clock.set('2026-01-15T09:00:00Z');
    const u = await user(10_000);
    const s = (await upsert(u, { time: '11:30' })).json().schedule;
    expect(s.nextRunAt).toBe('2026-01-15T10:30:00.000Z');

    await runWorkersAt('2026-01-15T10:29:00Z');
    expect(await runsOf(s.id)).toEqual([]);

    await runWorkersAt('2026-01-15T10:30:30Z');
    // Both workers again, and the dispatcher and the slot run called directly in parallel: still one purchase.
    await Promise.all([h.app.services.schedules.dispatchDue(), worker2.services.schedules.dispatchDue()]);
    const again = await Promise.all([
      h.app.services.schedules.runSlot(s.id, '2026-01-15T10:30:00.000Z'),
      worker2.services.schedules.runSlot(s.id, '2026-01-15T10:30:00.000Z'),
    ]);
    expect(again).toEqual(['duplicate', 'duplicate']);
    await runWorkersAt('2026-01-15T10:31:00Z');

    const runs = await runsOf(s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('success');
    expect(await vtuCount(u)).toBe(1);
    expect(await balance(u)).toBe(9800);
    // Access tokens live 15 minutes and the clock moved: sign in again.
    const again2 = await signIn(h, u.email);
    const listed = (await call(h, 'GET', `${P}listSchedulesBearerSchedules`, {}, { token: again2.token })).json().items[0];
    expect(listed).toMatchObject({ id: s.id, lastStatus: 'success', nextRunAt: '2026-01-16T10:30:00.000Z' });
    const history = await call(h, 'GET', `${P}listScheduleRunsBearerSchedules`, { id: s.id }, { token: again2.token });
    expect(history.json().items).toEqual([expect.objectContaining({ slot: '2026-01-15T10:30:00.000Z', status: 'success' })]);

    // Two fresh slots raced directly: exactly one buys.
    const raced = await Promise.all([
      h.app.services.schedules.runSlot(s.id, '2026-01-16T10:30:00.000Z'),
      worker2.services.schedules.runSlot(s.id, '2026-01-16T10:30:00.000Z'),
    ]);
    expect(raced.sort()).toEqual(['duplicate', 'ran']);
    expect(await vtuCount(u)).toBe(2);
    await expectLedgerOk(h);
  });

  it('a run whose purchase was pending shows the settled status once reconciliation resolves it', async () => {
    h.clock.set('2026-03-10T09:00:00Z');
    const u = await user(10_000);
    // 2222: the provider answers pending; a requery 5 s later reports delivered (docs/design.md §8).
    const s = (await upsert(u, { phone: '08031232222', time: '11:30' })).json().schedule;
    await runWorkersAt('2026-03-10T10:30:30Z');
    expect((await runsOf(s.id))[0].status).toBe('processing');
    let token = (await signIn(h, u.email)).token;
    const before = (await call(h, 'GET', `${P}listSchedulesBearerSchedules`, {}, { token })).json().items[0];
    expect(before.lastStatus).toBe('processing');
    for (let i = 0; i < 6; i++) {
      h.clock.advance(10_000);
      await h.app.services.jobs.tickCrons();
      await h.app.services.jobs.drain();
    }
    token = (await signIn(h, u.email)).token;
    const after = (await call(h, 'GET', `${P}listSchedulesBearerSchedules`, {}, { token })).json().items[0];
    expect(after.lastStatus).toBe('success');
    const history = (await call(h, 'GET', `${P}listScheduleRunsBearerSchedules`, { id: s.id }, { token })).json().items;
    expect(history[0]).toMatchObject({ status: 'success' });
    await expectLedgerOk(h);
  });

  it('a slot that cannot be bought notifies the user (insufficient funds, network mismatch) and pauses after 3 failures', async () => {
    h.clock.set('2026-02-01T09:00:00Z');
    const u = await user(100);
    const s = (await upsert(u, { amount: 500, time: '10:15' })).json().schedule;
    await runWorkersAt('2026-02-01T09:15:00Z');
    let runs = await runsOf(s.id);
    expect(runs.map((r) => [r.status, r.error_code])).toEqual([['failed', 'INSUFFICIENT_FUNDS']]);
    expect(await balance(u)).toBe(100);
    const notes = await rows<{ kind: string; body: string; data: { code: string } }>(
      h.app.services.db,
      sql`SELECT kind, body, data FROM notifications WHERE user_id = ${u.id}`,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'schedule_failed', data: { code: 'INSUFFICIENT_FUNDS' } });

    // The stored network no longer matches the number (e.g. the schedule predates a prefix change).
    await h.app.services.db.execute(sql`UPDATE schedules SET network = 'glo' WHERE id = ${s.id}`);
    await runWorkersAt('2026-02-02T09:15:00Z');
    runs = await runsOf(s.id);
    expect(runs[1].error_code).toBe('NETWORK_MISMATCH');

    await runWorkersAt('2026-02-03T09:15:00Z');
    const fresh = await signIn(h, u.email);
    const listed = (await call(h, 'GET', `${P}listSchedulesBearerSchedules`, {}, { token: fresh.token })).json().items[0];
    expect(listed).toMatchObject({ active: false, nextRunAt: null, lastStatus: 'failed' });
    const kinds = await rows<{ kind: string; body: string }>(
      h.app.services.db,
      sql`SELECT kind, body FROM notifications WHERE user_id = ${u.id} ORDER BY created_at, id`,
    );
    expect(kinds.map((k) => k.kind)).toEqual(['schedule_failed', 'schedule_failed', 'schedule_failed']);
    expect(kinds.some((k) => k.body.includes('paused'))).toBe(true);
    // Paused: later slots do nothing.
    await runWorkersAt('2026-02-04T09:15:00Z');
    expect(await runsOf(s.id)).toHaveLength(3);
    expect(await vtuCount(u)).toBe(0);
    await expectLedgerOk(h);
  });

  it('toggle, update and delete work on own schedules only; other ids are 404', async () => {
    h.clock.set('2026-03-01T09:00:00Z');
    const u = await user(0);
    const other = await user(0);
    const s = (await upsert(u, {})).json().schedule;
    const off = await call(h, 'POST', `${P}toggleScheduleBearerSchedules`, { id: s.id, active: false }, { token: u.token });
    expect(off.json().schedule).toMatchObject({ active: false, nextRunAt: null });
    const on = await call(h, 'POST', `${P}toggleScheduleBearerSchedules`, { id: s.id, active: true }, { token: u.token });
    expect(on.json().schedule).toMatchObject({ active: true, nextRunAt: '2026-03-01T10:30:00.000Z' });
    const upd = await upsert(u, { id: s.id, frequency: 'weekly', dayOfWeek: 1, time: '08:00', amount: 300 });
    expect(upd.json()).toMatchObject({
      created: false,
      schedule: { id: s.id, frequency: 'weekly', dayOfWeek: 1, amount: 300, nextRunAt: '2026-03-02T07:00:00.000Z' },
    });

    for (const [op, input] of [
      ['toggleScheduleBearerSchedules', { id: s.id, active: false }],
      ['deleteScheduleBearerSchedules', { id: s.id }],
    ] as const) {
      expect((await call(h, 'POST', `${P}${op}`, input, { token: other.token })).statusCode).toBe(404);
    }
    expect((await upsert(other, { id: s.id })).statusCode).toBe(404);
    expect((await call(h, 'GET', `${P}listScheduleRunsBearerSchedules`, { id: s.id }, { token: other.token })).statusCode).toBe(404);
    expect((await call(h, 'GET', `${P}listSchedulesBearerSchedules`, {}, { token: other.token })).json().items).toEqual([]);

    expect((await call(h, 'POST', `${P}deleteScheduleBearerSchedules`, { id: s.id }, { token: u.token })).json().deleted).toBe(true);
    expect((await call(h, 'POST', `${P}deleteScheduleBearerSchedules`, { id: s.id }, { token: u.token })).statusCode).toBe(404);
  });
});
