import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/kernel/errors.js';
import { createLoopbackTransport, type HttpTransport } from '../../src/providers/http-transport.js';
import { createPaystackStyleAdapter, signProcessorPayload } from '../../src/providers/processor.js';
import { call, createHarness, type Harness } from '../helpers/harness.js';
import { user } from './helpers.js';

/** The adapter's protocol handling, with scripted transports, and the service when the processor is down. */
const adapter = (transport: HttpTransport) =>
  createPaystackStyleAdapter({ id: 'p', baseUrl: 'https://api.processor.example/', secretKey: 'sk_test', transport });
const reply = (status: number, body: unknown) => async () => ({ status, text: typeof body === 'string' ? body : JSON.stringify(body) });

describe('Paystack-style adapter', () => {
  it('sends the real request shapes', async () => {
    const seen: { url: string; method: string; headers?: Record<string, string>; body?: string }[] = [];
    const a = adapter(async (url, req) => {
      seen.push({ url, ...req });
      return {
        status: 200,
        text: JSON.stringify({
          status: true,
          message: 'ok',
          data: { authorization_url: 'https://checkout.example/abc', access_code: 'abc', reference: 'top_1' },
        }),
      };
    });
    const r = await a.initialize({ email: 'a@b.co', amount: 150000n, reference: 'top_1', callbackUrl: 'https://app.example/cb' });
    expect(r).toEqual({ authorizationUrl: 'https://checkout.example/abc', accessCode: 'abc', reference: 'top_1' });
    expect(seen[0]).toMatchObject({
      url: 'https://api.processor.example/transaction/initialize',
      method: 'POST',
      headers: { authorization: 'Bearer sk_test' },
    });
    expect(JSON.parse(seen[0].body!)).toEqual({
      email: 'a@b.co',
      amount: '150000',
      reference: 'top_1',
      callback_url: 'https://app.example/cb',
    });
  });

  it('maps verify answers: unknown reference, unknown statuses, amounts in kobo', async () => {
    expect((await adapter(reply(400, { status: false, message: 'Transaction reference not found' })).verify('x')).status).toBe('not_found');
    const ongoing = await adapter(reply(200, { status: true, data: { reference: 'x', status: 'ongoing', amount: 500 } })).verify('x');
    expect(ongoing.status).toBe('pending');
    const paid = await adapter(
      reply(200, {
        status: true,
        data: { reference: 'x', status: 'success', amount: '123456', currency: 'NGN', channel: 'bank', paid_at: '2026-01-01T10:00:00Z' },
      }),
    ).verify('x');
    expect(paid).toMatchObject({ status: 'success', amount: 123456n, channel: 'bank', currency: 'NGN' });
  });

  it('lists successful charges across pages', async () => {
    const urls: string[] = [];
    const a = adapter(async (url) => {
      urls.push(url);
      const page = Number(new URL(url).searchParams.get('page'));
      const data = [
        {
          reference: `r${page}`,
          status: 'success',
          amount: 100 * page,
          channel: 'dedicated_nuban',
          authorization: { receiver_bank_account_number: '9000000001' },
        },
      ];
      return { status: 200, text: JSON.stringify({ status: true, data, meta: { total: 2, perPage: 1, page, pageCount: 2 } }) };
    });
    const list = await a.listSuccessfulCharges(new Date('2026-01-01T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    expect(list.map((c) => [c.reference, c.amount, c.receiverAccountNumber])).toEqual([
      ['r1', 100n, '9000000001'],
      ['r2', 200n, '9000000001'],
    ]);
    expect(urls[0]).toContain('/transaction?status=success&from=2026-01-01T00%3A00%3A00.000Z');
  });

  it('turns network failures, 5xx and junk into UPSTREAM_ERROR', async () => {
    const down = adapter(async () => {
      throw new Error('ECONNREFUSED');
    });
    await expect(down.verify('x')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    await expect(adapter(reply(502, 'Bad gateway')).initialize({ email: 'a@b.co', amount: 100n, reference: 'r' })).rejects.toBeInstanceOf(
      AppError,
    );
    await expect(adapter(reply(200, '<html>')).verify('x')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    await expect(adapter(reply(200, { status: true, data: { nope: 1 } })).verify('x')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
  });

  it('verifies signatures over the exact bytes in constant time', () => {
    const a = adapter(reply(200, {}));
    const body = Buffer.from('{"event":"charge.success"}');
    const sig = signProcessorPayload('sk_test', body);
    expect(sig).toHaveLength(128);
    expect(a.verifySignature(body, sig)).toBe(true);
    expect(a.verifySignature(body, sig.toUpperCase())).toBe(true);
    expect(a.verifySignature(Buffer.from('{"event": "charge.success"}'), sig)).toBe(false);
    expect(a.verifySignature(body, sig.slice(0, 127))).toBe(false);
    expect(a.verifySignature(body, undefined)).toBe(false);
    expect(a.verifySignature(body, signProcessorPayload('sk_other', body))).toBe(false);
  });

  it('the loopback transport uses the network for other hosts and once the app listens', async () => {
    const calls: string[] = [];
    const t = createLoopbackTransport('http://localhost:3000', async (url) => {
      calls.push(url);
      return { status: 204, text: '' };
    });
    let listening = false;
    t.attach({
      inject: async (o) => ({ statusCode: 200, body: `in:${o.url}` }),
      server: {
        get listening() {
          return listening;
        },
      },
    });
    expect(await t.send('http://localhost:3000/sandbox/x?y=1', { method: 'GET' })).toEqual({ status: 200, text: 'in:/sandbox/x?y=1' });
    expect((await t.send('http://localhost:30000/other', { method: 'GET' })).status).toBe(204);
    listening = true;
    expect((await t.send('http://localhost:3000/sandbox/x', { method: 'GET' })).status).toBe(204);
    expect(calls).toEqual(['http://localhost:30000/other', 'http://localhost:3000/sandbox/x']);
  });
});

describe('processor down', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { PROCESSOR_BASE_URL: 'http://127.0.0.1:9/api' } });
  });
  afterAll(async () => h?.close());

  it('createTopupIntent answers 502 and keeps the intent as failed', async () => {
    const u = await user(h);
    const r = await call(h, 'POST', '/_serverFn/createTopupIntentBearerWallet', { amount: 500 }, { token: u.token });
    expect(r.statusCode).toBe(502);
    expect(r.json().error.code).toBe('UPSTREAM_ERROR');
    const hist = (await call(h, 'GET', '/_serverFn/listPaymentHistoryBearerPayments', {}, { token: u.token })).json();
    expect(hist.items).toEqual([expect.objectContaining({ amount: 500, status: 'failed' })]);
    const v = await call(
      h,
      'POST',
      '/_serverFn/verifyProcessorTopupBearerPayments',
      { reference: hist.items[0].reference },
      { token: u.token },
    );
    expect(v.statusCode).toBe(502);
  });
});
