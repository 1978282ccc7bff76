// Lints the Dockerfile (hadolint is not in Debian's packages): dockerfile-utils' validator (syntax,
// instruction arguments, deprecated instructions, every problem as an error) plus the rules of ours a
// production image must keep. Exits 1 on any finding. `node scripts/lint-dockerfile.mjs [Dockerfile]`.
import fs from 'node:fs';
import process from 'node:process';
import { validate } from 'dockerfile-utils';

const file = process.argv[2] ?? 'Dockerfile';
const text = fs.readFileSync(file, 'utf8');
const findings = [];

// Every validator diagnostic counts, warnings (e.g. deprecated MAINTAINER) as much as errors.
for (const d of validate(text)) findings.push(`line ${d.range.start.line + 1}: ${d.message}`);

// Logical lines (continuations joined), with their first physical line number.
const lines = [];
text.split('\n').forEach((raw, i) => {
  const prev = lines[lines.length - 1];
  if (prev && prev.open) {
    prev.text += ` ${raw.trim()}`;
    prev.open = raw.trimEnd().endsWith('\\');
  } else if (raw.trim() && !raw.trim().startsWith('#')) lines.push({ n: i + 1, text: raw.trim(), open: raw.trimEnd().endsWith('\\') });
});
const stages = [];
for (const l of lines) {
  const [instr] = l.text.split(/\s+/);
  const op = instr.toUpperCase();
  if (op === 'FROM') {
    stages.push({ from: l, user: null, healthcheck: false });
    const image = l.text.split(/\s+/)[1] ?? '';
    if (!image.includes(':') && !image.includes('@'))
      findings.push(`line ${l.n}: FROM ${image} has no tag: pin the base image (e.g. node:24-bookworm-slim)`);
    if (/:latest\b/.test(image)) findings.push(`line ${l.n}: FROM ${image}: pin a version, not latest`);
  }
  const stage = stages[stages.length - 1];
  if (op === 'USER' && stage) stage.user = l;
  if (op === 'HEALTHCHECK' && stage) stage.healthcheck = true;
  if (op === 'RUN') {
    if (/\bapt-get install\b/.test(l.text) && !/--no-install-recommends/.test(l.text))
      findings.push(`line ${l.n}: apt-get install without --no-install-recommends`);
    if (/\bnpm install\b/.test(l.text)) findings.push(`line ${l.n}: use npm ci (the lockfile), not npm install`);
    if (/\bsudo\b/.test(l.text)) findings.push(`line ${l.n}: sudo in a RUN`);
    if (/^RUN\s+cd\s/.test(l.text)) findings.push(`line ${l.n}: use WORKDIR instead of cd`);
  }
  if (op === 'ADD' && !/https?:\/\//.test(l.text) && !/\.tar/.test(l.text)) findings.push(`line ${l.n}: use COPY for local files, not ADD`);
  if (op === 'EXPOSE')
    for (const p of l.text.split(/\s+/).slice(1))
      if (!(Number(p.split('/')[0]) > 0 && Number(p.split('/')[0]) < 65536)) findings.push(`line ${l.n}: EXPOSE ${p} is not a port`);
}
const last = stages[stages.length - 1];
if (!last) findings.push('no FROM');
else {
  if (!last.user || /^USER\s+(root|0)(:|\s|$)/i.test(last.user.text)) findings.push('the final stage must run as a non-root USER');
  if (!last.healthcheck) findings.push('the final stage has no HEALTHCHECK');
}

if (findings.length) {
  for (const f of findings) console.error(`${file}: ${f}`);
  process.exit(1);
}
console.log(`${file}: ok (${stages.length} stages)`);
