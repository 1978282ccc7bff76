import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operatorRoles } from '../../web/src/api/operation-roles.js';

/**
 * The web app's edges (issue 44): only web/src/api talks to the service, and the operator roles are only the ones
 * generated from the service's `x-roles` (web/src/api/operation-roles.ts, `npm run api:types`).
 */
const root = new URL('../../', import.meta.url);
const files = (dir: URL): URL[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(new URL(`${d.name}/`, dir)) : [new URL(d.name, dir)]));
const code = (dir: string) =>
  files(new URL(dir, root))
    .filter((f) => /\.tsx?$/.test(f.pathname))
    .map((f) => ({ path: relative(fileURLToPath(root), fileURLToPath(f)), text: readFileSync(f, 'utf8') }));
const web = code('web/src/');

/**
 * What reaches the service by itself: fetch, XMLHttpRequest, a beacon, an event stream, a second typed client, an
 * address under /api/ or an operation's /_serverFn/ path. The service worker (web/src/sw.ts) is left out: it fetches the app's own shell (the page and
 * its hashed assets) for offline use and lets every service path (/_serverFn, /api, ...) pass untouched.
 */
const TRANSPORT = [
  /(?<![\w.])fetch\s*\(/,
  /\bwindow\.fetch\b/,
  /\bXMLHttpRequest\b/,
  /\bsendBeacon\b/,
  /\bEventSource\b/,
  /\bcreateServiceClient\b/,
  /['"`]\/api\//,
  // An operation's path written out: the app names operations through web/src/api/operations.
  /\/_serverFn\//,
  // An operation's path handed to the transport: screens call the generated function (web/src/api/calls) instead.
  /(?<![\w.])(get|post|download)\(\s*ops\./,
  // The transport itself imported: only web/src/api chooses a method and a path.
  /import\s*\{[^}]*(?<![\w.])(get|post|download)\b[^}]*\}\s*from\s*['"][^'"]*api\/client['"]/,
];
const OUTSIDE_API = (path: string) => !path.startsWith('web/src/api/') && path !== 'web/src/sw.ts' && !/\.test\.tsx?$/.test(path);

/** An array literal (no nested brackets) naming two or more operator roles as strings. */
function roleLists(text: string): string[] {
  const quoted = new RegExp(`['"\`](${operatorRoles.join('|')})['"\`]`, 'g');
  return [...text.matchAll(/\[[^[\]]*\]/g)]
    .map((m) => m[0])
    .filter((list) => new Set([...list.matchAll(quoted)].map((q) => q[1])).size >= 2);
}

describe('the web app calls the service only through web/src/api', () => {
  it('no file outside web/src/api fetches, opens a client or names an /api/ address', () => {
    expect(web.length).toBeGreaterThan(100);
    const found = web
      .filter((f) => OUTSIDE_API(f.path))
      .flatMap((f) => TRANSPORT.filter((re) => re.test(f.text)).map((re) => `${f.path}: ${re.source}`));
    expect(found).toEqual([]);
  });

  it('the check sees a call: fetch, a beacon, an /api/ address and the transport are found; refetch and api.x are not', () => {
    const seen = (text: string) => TRANSPORT.some((re) => re.test(text));
    expect(seen("void fetch('/x')")).toBe(true);
    expect(seen('navigator.sendBeacon(url)')).toBe(true);
    expect(seen("const path = '/api/public/login-failed'")).toBe(true);
    expect(seen("post('/_serverFn/buyAirtimeBearerVTU', input)")).toBe(true);
    expect(seen('post(ops.buyAirtime, input)')).toBe(true);
    expect(seen('await get(\n  ops.listApiKeys)')).toBe(true);
    expect(seen("import { ApiError, post, type PostInput } from '../../api/client';")).toBe(true);
    expect(seen("import { download as fetchFile } from '../api/client';")).toBe(true);
    expect(seen('api.buyAirtime(input, { idempotencyKey })')).toBe(false);
    expect(seen("import { ApiError, type GetOutput } from '../../api/client';")).toBe(false);
    expect(seen('void usage.refetch()')).toBe(false);
  });
});

describe('no role list in web/ is written by hand', () => {
  it('the generated file is the only place that lists operator roles', () => {
    expect(operatorRoles).toContain('admin');
    const found = [...web, ...code('web/e2e/')]
      .filter((f) => f.path !== 'web/src/api/operation-roles.ts')
      .flatMap((f) => roleLists(f.text).map((list) => `${f.path}: ${list.replace(/\s+/g, ' ')}`));
    expect(found).toEqual([]);
  });

  it('the check sees a list: two roles in one array are found, one role or other words are not', () => {
    expect(roleLists("const ROLES = [{ value: 'support', label: 'x' }, { value: 'finance' }];")).toHaveLength(1);
    expect(roleLists("targets(['admin'])")).toEqual([]);
    expect(roleLists("['kyc', 'support', 'canned']")).toEqual([]);
  });
});
