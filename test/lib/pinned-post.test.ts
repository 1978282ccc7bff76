import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, pinnedPost } from '../../src/lib/pinned-post.js';
import { NotPublicError } from '../../src/lib/public-address.js';

// The one pinned POST of webhooks and web push (issue 45): the answer's status, headers and capped text; a host checked
// with a resolver connects only to the checked public address, and a private one is refused before any connection.
let server: http.Server;
let base: URL;
let connections = 0;
const got: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    connections++;
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push(`${req.headers['content-length']} ${body}`);
      res.writeHead(429, { 'retry-after': '7' }).end('x'.repeat(10_000));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
});
afterAll(() => new Promise((r) => server.close(r)));

describe('pinnedPost', () => {
  it('answers the status, the headers and the first 4096 bytes of the body; a Buffer body is sent with its length', async () => {
    const res = await pinnedPost(base, { headers: {}, body: Buffer.from('héllo'), timeoutMs: 5000, resolver: null });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.text).toHaveLength(MAX_ANSWER_BYTES);
    expect(got.at(-1)).toBe('6 héllo');
  });

  it('with a resolver, a name resolving to a private address is refused without a connection', async () => {
    const before = connections;
    const named = new URL(base);
    named.hostname = 'rebind.example.test';
    const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    await expect(pinnedPost(named, { headers: {}, body: '{}', timeoutMs: 5000, resolver })).rejects.toBeInstanceOf(NotPublicError);
    await expect(pinnedPost(base, { headers: {}, body: '{}', timeoutMs: 5000, resolver })).rejects.toBeInstanceOf(NotPublicError);
    expect(connections).toBe(before);
  });
});
