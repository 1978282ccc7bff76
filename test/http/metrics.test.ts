import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/client.js';
import { HOUR } from '../../src/kernel/clock.js';
import { call, createHarness, type Harness } from '../helpers/harness.js';
import { buyer, mtn, PIN, VTU_ENV } from '../vtu/helpers.js';

// /metrics: business gauges from the database, upstream latency and SMS sends, behind METRICS_TOKEN.
let h: Harness;
const TOKEN = 'metrics-token-for-the-metrics-test-0123';
beforeAll(async () => {
  h = await createHarness({ env: { ...VTU_ENV, METRICS_TOKEN: TOKEN, JOBS_RETENTION_HOURS: '24' } });
});
afterAll(async () => h.close());

const scrape = async () => {
  const r = await h.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.statusCode).toBe(200);
  return r.body;
};
/** The value of one sample line (`name{labels} value`), or null when absent. */
const sample = (body: string, line: string) => {
  const found = body.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : null;
};

describe('/metrics', () => {
  it('is refused without the bearer token', async () => {
    expect((await h.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await h.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
  });

  it('counts purchases by service, provider and status, the upstream calls, floats, jobs and SMS', async () => {
    const u = await buyer(h, 5_000);
    const ok = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: mtn('1234'), amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(ok.statusCode).toBe(200);
    const failed = await call(
      h,
      'POST',
      '/api/v1/buyAirtime',
      { network: 'mtn', phone: mtn('1111'), amount: 100, pin: PIN },
      { token: u.token },
    );
    expect(failed.statusCode).toBe(200);
    const [{ provider }] = await rows<{ provider: string }>(
      h.app.services.db,
      sql`SELECT DISTINCT provider FROM vtu_transactions WHERE user_id = ${u.id}`,
    );
    await call(h, 'POST', '/_serverFn/sendPhoneOtpPublicAuth', { phone: '08031234001' }, { token: u.token });

    const body = await scrape();
    expect(sample(body, `vtu_purchases_24h{service="airtime",provider="${provider}",status="success"}`)).toBe(1);
    expect(sample(body, `vtu_purchases_24h{service="airtime",provider="${provider}",status="failed"}`)).toBe(1);
    expect(sample(body, 'vtu_purchases_stuck')).toBe(0);
    expect(sample(body, `vtu_provider_float_naira{provider="${provider}"}`)).not.toBeNull();
    expect(body).toMatch(new RegExp(`upstream_request_duration_seconds_count\\{upstream="vtu:${provider}",outcome="ok"\\} \\d+`));
    expect(body).toMatch(/sms_sends_total\{provider="termii",result="sent"\} \d+/);
    expect(sample(body, 'sms_messages_24h{provider="termii",status="delivered"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'otp_codes_issued_24h{purpose="phone"}')).toBeGreaterThanOrEqual(1);
    expect(body).toContain('http_operation_duration_seconds_bucket');
    expect(body).toContain('# TYPE jobs_backlog gauge');

    // Every metric the Grafana dashboard and the alert rules in deploy/ query is one this service exports.
    const exprs = [
      ...JSON.parse(fs.readFileSync('deploy/grafana-dashboard.json', 'utf8')).panels.flatMap((p: { targets: { expr: string }[] }) =>
        p.targets.map((t) => t.expr),
      ),
      ...[...fs.readFileSync('deploy/alerts.yml', 'utf8').matchAll(/expr: (?:\|\n)?([\s\S]*?)\n\s+(?:for|labels):/g)].map((m) => m[1]),
    ];
    const names = new Set(exprs.flatMap((e: string) => [...e.matchAll(/([a-z][a-z0-9_]*_[a-z0-9_]+)(?=\{|\[|\))/g)].map((m) => m[1])));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(body, name).toMatch(new RegExp(`^# TYPE ${name.replace(/_(bucket|count|sum)$/, '')} `, 'm'));
  });

  it('shows dead letters and the oldest due job by queue', async () => {
    const { db, jobs, clock } = h.app.services;
    await jobs.enqueue(db, 'outbox.email', { to: 'late@example.com', subject: 's', text: 't' });
    await db.execute(sql`INSERT INTO jobs (queue, payload, status, run_at, attempts, max_attempts, last_error, created_at, updated_at)
                         VALUES ('outbox.sms', '{}'::jsonb, 'dead', ${clock.now()}, 6, 6, 'gone', ${clock.now()}, ${clock.now()})`);
    h.clock.advance(90_000); // also past the 5 s the gauges are cached for
    const body = await scrape();
    expect(sample(body, 'jobs_dead_letters{queue="outbox.sms"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'jobs_backlog{queue="outbox.email"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'jobs_oldest_due_age_seconds{queue="outbox.email"}')).toBeGreaterThanOrEqual(90);
  });
});

describe('job retention', () => {
  it('deletes finished jobs older than JOBS_RETENTION_HOURS, keeps newer ones and dead letters', async () => {
    const { db, clock, jobs } = h.app.services;
    const at = (hoursAgo: number) => new Date(clock.now().getTime() - hoursAgo * HOUR);
    for (const [status, hoursAgo, queue] of [
      ['done', 30, 'old.done'],
      ['done', 2, 'new.done'],
      ['dead', 30, 'old.dead'],
    ] as const) {
      await db.execute(
        sql`INSERT INTO jobs (queue, payload, status, run_at, created_at, updated_at) VALUES (${queue}, '{}'::jsonb, ${status}, ${at(hoursAgo)}, ${at(hoursAgo)}, ${at(hoursAgo)})`,
      );
    }
    await jobs.enqueue(db, 'jobs.cleanup', {});
    await jobs.drain();
    const left = (
      await rows<{ queue: string }>(db, sql`SELECT queue FROM jobs WHERE queue IN ('old.done', 'new.done', 'old.dead') ORDER BY queue`)
    ).map((r) => r.queue);
    expect(left).toEqual(['new.done', 'old.dead']);
  });
});
