import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every form of the web app says itself what is wrong, under the field and in the person's language
 * (components/form.ts). Without `noValidate` the browser checks a `required` field first: its English bubble shows
 * instead, and the form's own submit never runs, so the app's sentence never appears.
 */
const root = new URL('../../', import.meta.url);
const files = (dir: URL): URL[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(new URL(`${d.name}/`, dir)) : [new URL(d.name, dir)]));

/** The opening tag that starts at `from`: up to the first '>' outside braces (attributes' code and arrows included). */
function openingTag(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') depth--;
    else if (text[i] === '>' && depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

describe('web forms', () => {
  it('every <form> leaves the checks to the app (noValidate)', () => {
    const found: string[] = [];
    const missing: string[] = [];
    for (const f of files(new URL('web/src/', root)).filter((u) => u.pathname.endsWith('.tsx'))) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/<form\b/g)) {
        const where = `${relative(fileURLToPath(root), fileURLToPath(f))}:${text.slice(0, m.index).split('\n').length}`;
        found.push(where);
        if (!/\bnoValidate\b/.test(openingTag(text, m.index))) missing.push(where);
      }
    }
    expect(found.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
