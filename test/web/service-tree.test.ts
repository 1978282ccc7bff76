import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The service's tree holds no web code (issue 42): the kinds' buy screens live in the web app
 * (web/src/features/buy/kinds/<kind>), which imports the service's shared inputs and names; src/ never imports web/
 * (.dependency-cruiser.cjs, the-service-knows-no-app) and holds no React file.
 */
const files = (dir: URL): URL[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(new URL(`${d.name}/`, dir)) : [new URL(d.name, dir)]));
const src = files(new URL('../../src/', import.meta.url));

describe('the service tree', () => {
  it('holds no .tsx file and imports neither web/ nor React', () => {
    expect(src.length).toBeGreaterThan(100);
    expect(src.filter((f) => f.pathname.endsWith('.tsx')).map((f) => f.pathname)).toEqual([]);
    const web = src.filter(
      (f) => /\.[cm]?ts$/.test(f.pathname) && /(from|import\()\s*['"]([^'"]*\/web\/|react(-dom)?['"/])/.test(readFileSync(f, 'utf8')),
    );
    expect(web.map((f) => f.pathname)).toEqual([]);
  });
});
