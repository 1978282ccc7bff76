import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, outboundRequest, UpstreamTimeout } from '../../src/providers/http-client.js';
import { VtuTransport } from '../../src/providers/vtu/transport.js';
import { networkTransport } from '../../src/providers/http-transport.js';
import { ProviderError } from '../../src/providers/vtu/types.js';

/** src/providers/http-client.ts against a real loopback server: what reaches it, what comes back, and every way it fails. */
let server: http.Server;
let base = '';
const connections = new Set<unknown>();
const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === '/hold') return; // never answers
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i <= MAX_ANSWER_BYTES / chunk.length; i++) res.write(chunk);
        return res.end();
      }
      if (req.url === '/cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        return void setTimeout(() => req.socket.destroy(), 20);
      }
      if (req.url === '/boom') return res.writeHead(502).end('upstream broke');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, echo: body }));
    });
  });
  server.on('connection', (s) => connections.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('outbound HTTP client', () => {
  it('sends the method, headers and body, answers status and text, and keeps the connection for the next call', async () => {
    const before = connections.size;
    const body = JSON.stringify({ phone: '08031234567', amount: 100, note: 'naïra ₦' });
    const r = await outboundRequest(`${base}/pay?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': 'k1' },
      body,
      timeoutMs: 2000,
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ ok: true, echo: body });
    const got = seen.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/pay?x=1', body });
    expect(got.headers['api-key']).toBe('k1');
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    const again = await outboundRequest(`${base}/q`, { method: 'GET', timeoutMs: 2000 });
    expect(again.status).toBe(200);
    expect(connections.size - before).toBe(1);
  });

  it('answers an upstream error status as it came, for the adapter to judge', async () => {
    expect(await outboundRequest(`${base}/boom`, { method: 'GET', timeoutMs: 2000 })).toEqual({ status: 502, text: 'upstream broke' });
  });

  it('gives up on an answer that does not come within the timeout', async () => {
    const t = Date.now();
    await expect(outboundRequest(`${base}/hold`, { method: 'POST', body: '{}', timeoutMs: 100 })).rejects.toBeInstanceOf(UpstreamTimeout);
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it('fails, without a timeout, on a refused connection, a cut answer, an oversized answer and a bad URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refused = outboundRequest(`http://127.0.0.1:${port}/`, { method: 'GET', timeoutMs: 2000 });
    await expect(refused).rejects.toThrow(/ECONNREFUSED/);
    await expect(refused).rejects.not.toBeInstanceOf(UpstreamTimeout);
    await expect(outboundRequest(`${base}/cut`, { method: 'GET', timeoutMs: 2000 })).rejects.toThrow();
    await expect(outboundRequest(`${base}/huge`, { method: 'GET', timeoutMs: 10_000 })).rejects.toThrow(/larger than/);
    await expect(outboundRequest('ftp://example.com/x', { method: 'GET', timeoutMs: 100 })).rejects.toThrow(/unsupported protocol/);
    await expect(outboundRequest('not a url', { method: 'GET', timeoutMs: 100 })).rejects.toThrow(/not a URL/);
  });

  it('reaches VTU adapters as UpstreamTimeout naming the provider and ProviderError(network)', async () => {
    const t = new VtuTransport(networkTransport);
    expect((await t.request('c', { method: 'POST', url: `${base}/pay`, body: { a: 1 }, timeoutMs: 2000 })).status).toBe(200);
    expect(seen.at(-1)!.headers['content-type']).toBe('application/json');
    const held = await t.request('c', { method: 'GET', url: `${base}/hold`, timeoutMs: 100 }).catch((e) => e);
    expect(held).toBeInstanceOf(UpstreamTimeout);
    expect(held.message).toBe('provider c did not answer within 100 ms');
    const err = await t.request('c', { method: 'GET', url: 'http://127.0.0.1:1/', timeoutMs: 2000 }).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('network');
  });
});
