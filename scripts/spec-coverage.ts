import fs from 'node:fs';
import path from 'node:path';
import { allOperations } from '../src/modules/index.js';
import { serverFnPath } from '../src/platform/operation.js';
import { PUBLIC_ENDPOINTS } from '../src/http/public-endpoints.js';

/**
 * `npm run spec:coverage`: reads every operation and public endpoint from the spec file itself and reports
 * each as registered or missing. Exit code 1 when anything is missing and --strict is given.
 */
export interface SpecOperation {
  name: string;
  method: string;
  suffix: string;
  versioned: boolean;
}

/** The copy kept in the repository, so a clone without ../shared can still check itself. */
export const VENDORED_SPEC = path.resolve('docs/spec/service-interface.md');

/**
 * The team's shared spec when it sits beside the repository (the source of truth), else SPEC_FILE, else the
 * vendored copy. `--strict` also fails when the vendored copy differs from the shared one.
 */
export function specPath(): string {
  const candidates = [
    process.env.SPEC_FILE,
    path.resolve('../shared/spec/service-interface.md'),
    path.resolve('shared/spec/service-interface.md'),
    VENDORED_SPEC,
  ];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  throw new Error(
    `spec file not found: set SPEC_FILE, keep shared/ beside the repository, or restore ${path.relative(process.cwd(), VENDORED_SPEC)}`,
  );
}

export function readSpec(text: string): { operations: SpecOperation[]; endpoints: { method: string; path: string }[] } {
  const operations: SpecOperation[] = [];
  const endpoints: { method: string; path: string }[] = [];
  let sectionSuffix: string | null = null;
  let inEndpoints = false;
  let versionedNames = new Set<string>();
  const vm = /available for the (\d+) VTU operations, the 5 KYC operations \(([^)]+)\) and (\w+)/.exec(text);
  if (vm) versionedNames = new Set([...vm[2].split(',').map((s) => s.trim()), vm[3]]);
  for (const line of text.split('\n')) {
    const h = /^### 4\.(\d+) (.*)$/.exec(line);
    if (h) {
      const m = /\(Suffix (\w+)\)/.exec(h[2]);
      sectionSuffix = m ? m[1] : null;
      inEndpoints = h[2].startsWith('Public HTTP endpoints');
      continue;
    }
    if (line.startsWith('## ') && !line.startsWith('## 4')) {
      sectionSuffix = null;
      inEndpoints = false;
    }
    if (!line.startsWith('|') || line.includes('---')) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (inEndpoints) {
      if (/^(GET|POST)$/.test(cells[0])) endpoints.push({ method: cells[0], path: cells[1].replace('{base_url}', '') });
      continue;
    }
    if (!/^[a-z][A-Za-z0-9]+$/.test(cells[0] ?? '') || !/^(GET|POST)$/.test(cells[1] ?? '')) continue;
    const suffix = sectionSuffix ?? cells[2];
    operations.push({ name: cells[0], method: cells[1], suffix, versioned: sectionSuffix === 'BearerVTU' || versionedNames.has(cells[0]) });
  }
  return { operations, endpoints };
}

function main() {
  const file = specPath();
  console.log(`spec: ${path.relative(process.cwd(), file)}`);
  const text = fs.readFileSync(file, 'utf8');
  let stale = false;
  if (file !== VENDORED_SPEC && fs.existsSync(VENDORED_SPEC) && fs.readFileSync(VENDORED_SPEC, 'utf8') !== text) {
    stale = true;
    console.log(
      `STALE       ${path.relative(process.cwd(), VENDORED_SPEC)} differs from ${path.relative(process.cwd(), file)}: copy it over`,
    );
  }
  const { operations, endpoints } = readSpec(text);
  const registered = new Map(allOperations.map((o) => [serverFnPath(o), o]));
  let missing = 0;
  for (const op of operations) {
    const r = registered.get(`/_serverFn/${op.name}${op.suffix}`);
    const ok = r && r.method === op.method && (!op.versioned || r.versioned);
    if (!ok) missing++;
    const why = !r ? '' : r.method !== op.method ? ` (method ${r.method}, spec ${op.method})` : !ok ? ' (no /api/v1 form)' : '';
    console.log(
      `${ok ? 'registered' : 'MISSING   '}  ${op.method.padEnd(4)} /_serverFn/${op.name}${op.suffix}${op.versioned ? ' + /api/v1/' + op.name : ''}${why}`,
    );
  }
  for (const ep of endpoints) {
    const ok = PUBLIC_ENDPOINTS.some((p) => p.method === ep.method && p.path === ep.path);
    if (!ok) missing++;
    console.log(`${ok ? 'registered' : 'MISSING   '}  ${ep.method.padEnd(4)} ${ep.path}`);
  }
  const total = operations.length + endpoints.length;
  console.log(
    `\n${operations.length} operations and ${endpoints.length} public endpoints in the spec; ${total - missing} registered, ${missing} missing`,
  );
  if ((missing || stale) && process.argv.includes('--strict')) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]).includes('spec-coverage')) main();
