import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';

/** the built app is served at / by the same process, with the API's paths untouched. */
let h: Harness;
let dir: string;
const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
// What `npm run build` writes next to a file, here at settings the service's own compression does not use.
const preBr = zlib.brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
const preGz = zlib.gzipSync(script, { level: 1 });
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(dir, 'assets', 'pre-def456.js'), script);
  fs.writeFileSync(path.join(dir, 'assets', 'pre-def456.js.br'), preBr);
  fs.writeFileSync(path.join(dir, 'assets', 'pre-def456.js.gz'), preGz);
  fs.writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"VTU Wallet"}');
  h = await createHarness({ env: { WEB_DIR: dir } });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml' };

describe('the web app', () => {
  it('answers the page at / and at any client-side route, with a strict CSP and no caching', async () => {
    for (const url of ['/', '/transactions/abc', '/buy?service=data', '/receipt/ABCDEFGHJKLM']) {
      const r = await h.app.inject({ method: 'GET', url, headers: html });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.body).toContain('<div id="root">');
      expect(r.headers['cache-control']).toBe('no-cache');
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });

  it('serves hashed assets compressed and cached for a year; the service worker never cached', async () => {
    const br = await h.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await h.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await h.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.body).toBe(script);
    const sw = await h.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toMatch(/javascript/);
  });

  it("serves the build's compressed forms as they are, and not as files of their own", async () => {
    const url = '/assets/pre-def456.js';
    const br = await h.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Buffer.compare(br.rawPayload, preBr)).toBe(0);
    const gz = await h.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(Buffer.compare(gz.rawPayload, preGz)).toBe(0);
    expect((await h.app.inject({ method: 'GET', url })).body).toBe(script);
    expect((await h.app.inject({ method: 'GET', url: `${url}.br` })).statusCode).toBe(404);
  });

  it('leaves the API alone: unknown API paths, missing assets and non-HTML requests keep JSON 404s', async () => {
    for (const [url, headers] of [
      ['/_serverFn/noSuchOperation', html],
      ['/api/v1/noSuch', html],
      ['/assets/missing.js', html],
      ['/somewhere', { accept: 'application/json' }],
    ] as const) {
      const r = await h.app.inject({ method: 'GET', url, headers });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error.code).toBe('NOT_FOUND');
    }
    const ok = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect(ok.json()).toEqual({ ok: true });
  });
});
