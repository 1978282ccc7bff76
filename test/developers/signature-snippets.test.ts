import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signatureOf } from '../../src/modules/developers/webhook-model.js';

// Issue 45: the reseller guide's signature checks (docs/resellers.md, "Verifying a signature") are run as written, in
// Node, PHP and Python, against the header the service signs with: a true delivery passes, a changed body, another
// secret and an old timestamp fail. A machine without php or python3 skips that language; CI installs both and sets
// REQUIRE_SNIPPET_RUNTIMES=1, so there a missing one fails.
const guide = readFileSync(new URL('../../docs/resellers.md', import.meta.url), 'utf8');
const snippet = (label: string, fence: string) => {
  const m = new RegExp(`\\n${label}:\\n\\n\`\`\`${fence}\\n([\\s\\S]*?)\\n\`\`\``).exec(guide);
  if (!m) throw new Error(`no ${label} snippet in docs/resellers.md`);
  return m[1];
};
const has = (cmd: string) => {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const secret = 'whsec_0123456789abcdef0123456789abcdef';
const body = JSON.stringify({
  id: 'evt_purchase_succeeded_x',
  type: 'purchase.succeeded',
  created: '2026-12-03T10:00:00.000Z',
  data: { amount: 100 },
});
const now = () => Math.floor(Date.now() / 1000);
type Case = { body: string; header: string; secret: string };
const cases = (): [string, Case, boolean][] => [
  ['a true delivery', { body, header: signatureOf(secret, now(), body), secret }, true],
  ['a changed body', { body: body.replace('100', '900'), header: signatureOf(secret, now(), body), secret }, false],
  ['another secret', { body, header: signatureOf(secret, now(), body), secret: `${secret}x` }, false],
  ['a delivery 10 minutes old', { body, header: signatureOf(secret, now() - 600, body), secret }, false],
];

const runners: { name: string; cmd: string; run: (c: Case) => string }[] = [
  {
    name: 'Node',
    cmd: process.execPath,
    run: (c) =>
      execFileSync(
        process.execPath,
        ['-e', `${snippet('Node', 'js')}\nprocess.stdout.write(String(verify(process.env.B, process.env.H, process.env.S)))`],
        {
          env: { ...process.env, B: c.body, H: c.header, S: c.secret },
        },
      ).toString(),
  },
  {
    name: 'PHP',
    cmd: 'php',
    run: (c) =>
      execFileSync('php', ['-r', `${snippet('PHP', 'php')}\necho verify(getenv('B'), getenv('H'), getenv('S')) ? 'true' : 'false';`], {
        env: { ...process.env, B: c.body, H: c.header, S: c.secret },
      }).toString(),
  },
  {
    name: 'Python',
    cmd: 'python3',
    run: (c) =>
      execFileSync(
        'python3',
        [
          '-c',
          `${snippet('Python', 'python')}\nimport os\nprint(str(verify(os.environb[b"B"], os.environ["H"], os.environ["S"])).lower(), end="")`,
        ],
        { env: { ...process.env, B: c.body, H: c.header, S: c.secret } },
      ).toString(),
  },
];

describe("the reseller guide's signature checks verify the service's signatures", () => {
  for (const r of runners) {
    const present = has(r.cmd);
    it.skipIf(!present && process.env.REQUIRE_SNIPPET_RUNTIMES !== '1')(`${r.name}`, () => {
      for (const [what, c, ok] of cases()) expect(r.run(c), `${r.name}: ${what}`).toBe(String(ok));
    });
  }
});
