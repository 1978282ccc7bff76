// `npm run bench:web`: Lighthouse (mobile emulation and throttling, its defaults) on the built app
// served by the service (`node dist/main.js --sandbox` on a fresh data directory), with the machine's Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium). Prints performance, accessibility and best-practices scores, LCP and
// total blocking time for the sign-in screen (the page every visitor loads first), the signed-in home and the signed-in
// Buy screen (/buy?service=airtime; a stored session, see bench-web-session.ts), BENCH_WEB_RUNS times each (default 3)
// with the range (BENCH_WEB_SCREENS=buy,home: only the screens whose names contain one of these), and the onboarding
// journey's script time when web/e2e/onboarding.spec.ts has written it. Run `npm run build` first.
// BENCH_WEB_TASKS=1 also prints, per run, the page's main-thread tasks after first paint from Lighthouse's own trace:
// each task's wall time (what Lighthouse multiplies by 4 and counts over 50 ms) and the CPU time the thread got in it
// (the page's own cost; the difference is time spent waiting for a core or for another process), for comparing
// builds on a machine that is not quiet, with Lighthouse's total blocking time computed again from the same trace
// with each task shortened to that CPU time (the page's own blocking time, a lower bound), and the service's CPU time
// during the run. BENCH_WEB_TRACE_DIR=dir keeps each run's report, trace and DevTools log. A run whose trace lacks the
// page's navigation start (Lighthouse's NO_NAVSTART) is made again, at most twice, and counted (docs/decisions.md).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { auditFlowArtifacts } from 'lighthouse';
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
type Artifacts = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['artifacts'];
type LighthouseFlags = NonNullable<Parameters<typeof lighthouse>[1]>;

/**
 * Lighthouse's total blocking time computed again from the same run's trace, each of the page's main-thread tasks
 * shortened to the CPU time its thread got in it (and the events in it in proportion): what the run would have
 * measured had the page had a core to itself. A lower bound: a task's waits that are the page's own (a synchronous
 * storage read waiting for the browser process) go with the waits for a core.
 */
async function cpuTimeBlocking(artifacts: Artifacts, url: string, flags: LighthouseFlags): Promise<number> {
  const events = (artifacts.Trace as unknown as { traceEvents: TraceEvent[] }).traceEvents;
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
  if (!parse) return NaN;
  const thread = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const scaled = new Map<TraceEvent, TraceEvent>();
  for (let i = 0; i < thread.length; i++) {
    const task = thread[i];
    if (task.name !== 'RunTask' || !task.dur || task.tdur === undefined || task.tdur >= task.dur) continue;
    const f = task.tdur / task.dur;
    let j = i;
    for (; j < thread.length && thread[j].ts < task.ts + task.dur; j++) {
      const e = thread[j];
      scaled.set(e, { ...e, ts: Math.round(task.ts + (e.ts - task.ts) * f), dur: Math.round((e.dur ?? 0) * f) });
    }
    i = j - 1;
  }
  const Trace = { ...artifacts.Trace, traceEvents: events.map((e) => scaled.get(e) ?? e) } as unknown as Artifacts['Trace'];
  const flow = await auditFlowArtifacts({
    name: 'cpu time',
    gatherSteps: [{ artifacts: { ...artifacts, Trace }, flags }],
  });
  return flow.steps[0].lhr.audits['total-blocking-time']?.numericValue ?? NaN;
}

const TRACE_ERRORS = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED']);
const base = `http://localhost:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-bench-web-'));
const server = spawn(process.execPath, ['dist/main.js', '--sandbox'], {
  env: { ...process.env, PORT: String(PORT), PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

/** The service's CPU time so far in ms (Linux), to see what it spent while a run loaded the page. */
function serverCpuMs(): number {
  try {
    const fields = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

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
  const perf: Record<string, { score: number; tbt: number; cpuTbt: number }[]> = {};
  const repeated: Record<string, number> = {};
  const runs = Number(process.env.BENCH_WEB_RUNS ?? 3);
  const all: [string, string, boolean][] = [
    ['sign-in (/)', `${base}/`, false],
    ['signed-in home (/)', `${base}/`, true],
    // The screen a purchase starts from (issue 43): the airtime form, the service grid above it.
    ['signed-in buy (/buy?service=airtime)', `${base}/buy?service=airtime`, true],
  ];
  const only = process.env.BENCH_WEB_SCREENS?.split(',');
  const screens = all.filter(([name]) => !only || only.some((s) => name.includes(s)));
  for (const [i, [name, url, signedIn]] of [...screens.flatMap((s) => Array.from({ length: runs }, () => s))].entries()) {
    if (signedIn && i % runs === 0) await signInBrowser(base, chrome.port, url);
    const flags = {
      port: chrome.port,
      output: 'json' as const,
      logLevel: 'error' as const,
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      // The signed-in runs keep the session cookie and localStorage the sign-in put there.
      disableStorageReset: signedIn,
    };
    const serverBefore = serverCpuMs();
    let result = await lighthouse(url, flags);
    // Chromium sometimes leaves the new renderer process's first events out of the trace (the navigation leaves
    // Lighthouse's about:blank for another process, and on a busy machine that process joins the recording late):
    // the trace then has no navigationStart for the page and Lighthouse measures nothing. Nothing of the page is at
    // fault (docs/decisions.md), so such a run is made again, at most twice, and counted.
    for (let again = 0; again < 2 && TRACE_ERRORS.has(result!.lhr.runtimeError?.code ?? ''); again++) {
      repeated[name] = (repeated[name] ?? 0) + 1;
      console.log(`${name}: run not measured (${result!.lhr.runtimeError!.code}), made again`);
      result = await lighthouse(url, flags);
    }
    const serverDuring = serverCpuMs() - serverBefore;
    const lhr = result!.lhr;
    // BENCH_WEB_TRACE_DIR=dir keeps each run's report, trace and DevTools log there (run-<n>[-<error>].json).
    if (process.env.BENCH_WEB_TRACE_DIR) {
      const file = path.join(process.env.BENCH_WEB_TRACE_DIR, `run-${i}${lhr.runtimeError ? `-${lhr.runtimeError.code}` : ''}.json`);
      fs.writeFileSync(file, JSON.stringify({ lhr, trace: result!.artifacts.Trace, devtoolsLog: result!.artifacts.DevtoolsLog }));
    }
    if (lhr.runtimeError) console.log(`${name}: run not measured: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (k: string) => String(Math.round((lhr.categories[k]?.score ?? 0) * 100));
    const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? NaN;
    const tbt = lhr.audits['total-blocking-time']?.numericValue ?? NaN;
    const cpuTbt = process.env.BENCH_WEB_TASKS && !lhr.runtimeError ? await cpuTimeBlocking(result!.artifacts, url, flags) : NaN;
    (perf[name] ??= []).push({ score: Math.round((lhr.categories.performance?.score ?? 0) * 100), tbt, cpuTbt });
    // A session that did not hold would end on the sign-in screen at / (or send a new account to /welcome).
    if (signedIn && lhr.finalDisplayedUrl !== url) throw new Error(`signed-in run ended at ${lhr.finalDisplayedUrl}`);
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
      console.log(`${name}, the service's CPU time during the run: ${Math.round(serverDuring)} ms`);
      console.log(`${name}, total blocking time from the tasks' CPU time: ${Math.round(cpuTbt)} ms`);
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
    const again = repeated[name] ? `, ${repeated[name]} run(s) made again after a trace without the navigation` : '';
    // Issue 29's target for every run: performance at least 95 and total blocking time under 200 ms.
    const met = list.filter((r) => r.score >= 95 && r.tbt < 200).length;
    console.log(
      `${name}: performance ${range(list.map((r) => r.score))}, total blocking time ${range(list.map((r) => Math.round(r.tbt)))} ms over ${list.length} runs${failed}${again}; ${met} of ${list.length} met performance >= 95 and blocking < 200 ms`,
    );
    if (process.env.BENCH_WEB_TASKS)
      console.log(`${name}: total blocking time from the tasks' CPU time ${range(list.map((r) => Math.round(r.cpuTbt)))} ms`);
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
