import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';

// A body over the limit sent over a real socket gets the 413 envelope, not a reset connection: the service reads
// (and throws away) what the client sends, up to 64 MB, then answers.
let h: Harness;
let port: number;
beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
});
afterAll(async () => h.close());

/** Sends `size` bytes in 64 KB chunks (with a content-length, or chunked) and resolves with the answer. */
function send(
  path: string,
  size: number,
  opts: { chunked?: boolean; contentType?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json' };
    if (!opts.chunked) headers['content-length'] = String(size);
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20); // spaces: a JSON body the parser would accept, only too long
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('oversize bodies over a real socket', () => {
  for (const [name, size, chunked] of [
    ['2 MB with a content-length', 2 * 1024 * 1024, false],
    ['64 MB with a content-length', 64 * 1024 * 1024, false],
    ['8 MB chunked', 8 * 1024 * 1024, true],
  ] as const) {
    it(`${name}: 413 PAYLOAD_TOO_LARGE on an operation`, async () => {
      const res = await send('/_serverFn/sendLoginOtpPublicAuth', size, { chunked });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  }

  it('an unknown route answers in the error shape after reading the body', async () => {
    const res = await send('/_serverFn/noSuchOperation', 64 * 1024 * 1024);
    expect(res.status).toBe(413); // the body limit is checked before routing
    expect(JSON.parse(res.body).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('fetch (undici) in another process gets the answer for a 64 MB body instead of "fetch failed"', async () => {
    // Another process, as a real client is: in this one the server would read while the client writes.
    const script = `const r = await fetch('http://127.0.0.1:${port}/_serverFn/sendLoginOtpPublicAuth', { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: Buffer.alloc(64 * 1024 * 1024, 0x20) });
      process.stdout.write(r.status + ' ' + (await r.text()));`;
    const out = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], (err, stdout, stderr) => resolve(err ? `ERR ${stderr}` : stdout));
    });
    expect(out).toMatch(/^413 /);
    expect(JSON.parse(out.slice(4)).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a refused media type answers 415 after reading the body', async () => {
    const res = await send('/_serverFn/sendLoginOtpPublicAuth', 4 * 1024 * 1024, { contentType: 'application/xml' });
    expect(res.status).toBe(415);
  });

  it('the webhook and the public routes answer 413 too', async () => {
    for (const path of ['/api/public/login-failed', '/api/webhooks/processor']) {
      const res = await send(path, 3 * 1024 * 1024);
      expect(res.status, path).toBe(413);
    }
  });

  it('the connection still serves requests after a 413', async () => {
    const res = await send('/_serverFn/sendLoginOtpPublicAuth', 2 * 1024 * 1024);
    expect(res.status).toBe(413);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(ok.status).toBe(200);
  });
});
