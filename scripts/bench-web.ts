// `npm run bench:web`: Lighthouse (mobile emulation and throttling, its defaults) on the built app
// served by the service (`node dist/main.js --sandbox` on a fresh data directory), with the machine's Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium). Prints performance, accessibility and best-practices scores, LCP and
// total blocking time for the sign-in screen (the page every visitor loads first) and the signed-in home (a stored
// session, see bench-web-session.ts), BENCH_WEB_RUNS times each (default 3) with the range, and the onboarding
// journey's script time when web/e2e/onboarding.spec.ts has written it. Run `npm run build` first.
// BENCH_WEB_TASKS=1 also prints, per run, the page's main-thread tasks after first paint from Lighthouse's own trace:
// each task's wall time (what Lighthouse multiplies by 4 and counts over 50 ms) and the CPU time the thread got in it
// (the page's own cost; the difference is time spent waiting for a core or for another process), for comparing
// builds on a machine that is not quiet.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { signInBrowser } from './bench-web-session.js';

const PORT = Number(process.env.BENCH_WEB_PORT ?? 3300);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { beginData?: { url?: string } };
}

/** The page's main-thread tasks of at least 3 ms of CPU after its first contentful paint: "wall/CPU" in ms. */
function tasksAfterPaint(events: TraceEvent[], url: string) {
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
  if (!parse) return 'no page in the trace';
  const paint = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === parse.pid);
  const from = paint?.ts ?? parse.ts;
  const tasks = events.filter(
    (e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && e.name === 'RunTask' && e.ts >= from && (e.tdur ?? 0) >= 3000,
  );
  const ms = (us = 0) => (us / 1000).toFixed(1);
  const cpu = tasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0);
  return `${tasks.map((t) => `${ms(t.dur)}/${ms(t.tdur)}`).join(' ')} (CPU ${ms(cpu)} ms, longest ${ms(Math.max(0, ...tasks.map((t) => t.tdur ?? 0)))})`;
}
const base = `http://localhost:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-bench-web-'));
const server = spawn(process.execPath, ['dist/main.js', '--sandbox'], {
  env: { ...process.env, PORT: String(PORT), PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function ready() {
  for (let i = 0; i < 1500; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the service did not become ready');
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  await ready();
  const rows: string[][] = [];
  const perf: Record<string, { score: number; tbt: number }[]> = {};
  const runs = Number(process.env.BENCH_WEB_RUNS ?? 3);
  const screens: [string, string, boolean][] = [
    ['sign-in (/)', `${base}/`, false],
    ['signed-in home (/)', `${base}/`, true],
  ];
  for (const [i, [name, url, signedIn]] of [...screens.flatMap((s) => Array.from({ length: runs }, () => s))].entries()) {
    if (signedIn && i % runs === 0) await signInBrowser(base, chrome.port);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      // The signed-in runs keep the session cookie and localStorage the sign-in put there.
      disableStorageReset: signedIn,
    });
    const lhr = result!.lhr;
    const score = (k: string) => String(Math.round((lhr.categories[k]?.score ?? 0) * 100));
    const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? NaN;
    const tbt = lhr.audits['total-blocking-time']?.numericValue ?? NaN;
    (perf[name] ??= []).push({ score: Math.round((lhr.categories.performance?.score ?? 0) * 100), tbt });
    if (signedIn && !lhr.finalDisplayedUrl.endsWith('/')) throw new Error(`signed-in run ended at ${lhr.finalDisplayedUrl}`);
    const ms = (id: string) => `${((lhr.audits[id]?.numericValue ?? NaN) / 1000).toFixed(2)} s`;
    rows.push([
      name,
      score('performance'),
      score('accessibility'),
      score('best-practices'),
      `${(lcp / 1000).toFixed(2)} s`,
      ms('first-contentful-paint'),
      ms('speed-index'),
      `${Math.round(tbt)} ms`,
    ]);
    if (process.env.BENCH_WEB_TASKS) {
      const trace = result!.artifacts.Trace as unknown as { traceEvents: TraceEvent[] };
      console.log(`${name}, tasks after first paint (wall/CPU ms): ${tasksAfterPaint(trace.traceEvents, url)}`);
    }
    if (process.env.BENCH_WEB_DETAILS) {
      for (const id of ['largest-contentful-paint-element', 'render-blocking-resources', 'bootup-time', 'unused-javascript'])
        console.log(id, String(JSON.stringify(lhr.audits[id]?.details ?? lhr.audits[id]?.displayValue ?? null)).slice(0, 1500));
    }
  }
  console.log(
    '| screen | performance | accessibility | best practices | LCP | FCP | speed index | total blocking time |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  for (const [name, all] of Object.entries(perf)) {
    // A run Lighthouse could not measure (no paint within its limits, on a starved machine) is counted, not ranged.
    const list = all.filter((r) => Number.isFinite(r.tbt));
    const range = (xs: number[]) => `${Math.min(...xs)}-${Math.max(...xs)}`;
    const failed = all.length - list.length ? `, ${all.length - list.length} run(s) not measured` : '';
    console.log(
      `${name}: performance ${range(list.map((r) => r.score))}, total blocking time ${range(list.map((r) => Math.round(r.tbt)))} ms over ${list.length} runs${failed}`,
    );
  }
  const onboarding = path.join(os.tmpdir(), 'vtu-onboarding-seconds.json');
  if (fs.existsSync(onboarding)) {
    const { seconds, at } = JSON.parse(fs.readFileSync(onboarding, 'utf8')) as { seconds: number; at: string };
    console.log(
      `onboarding, first screen to a successful airtime purchase: ${seconds.toFixed(1)} s of script time (web/e2e/onboarding.spec.ts, ${at})`,
    );
  }
} finally {
  await chrome.kill();
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
