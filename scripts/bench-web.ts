// `npm run bench:web`: Lighthouse (mobile emulation and throttling, its defaults) on the built app
// served by the service (`node dist/main.js --sandbox` on a fresh data directory), with the machine's Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium). Prints performance, accessibility and best-practices scores and LCP
// for the sign-in screen, the page every visitor loads first. Run `npm run build` first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const PORT = Number(process.env.BENCH_WEB_PORT ?? 3300);
const base = `http://localhost:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-bench-web-'));
const server = spawn(process.execPath, ['dist/main.js', '--sandbox'], {
  env: { ...process.env, PORT: String(PORT), PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function ready() {
  for (let i = 0; i < 300; i++) {
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
  for (const [name, url] of [['sign-in (/)', `${base}/`]]) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    const lhr = result!.lhr;
    const score = (k: string) => String(Math.round((lhr.categories[k]?.score ?? 0) * 100));
    const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? NaN;
    const ms = (id: string) => `${((lhr.audits[id]?.numericValue ?? NaN) / 1000).toFixed(2)} s`;
    rows.push([
      name,
      score('performance'),
      score('accessibility'),
      score('best-practices'),
      `${(lcp / 1000).toFixed(2)} s`,
      ms('first-contentful-paint'),
      ms('speed-index'),
      `${Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN)} ms`,
    ]);
    if (process.env.BENCH_WEB_DETAILS) {
      for (const id of ['largest-contentful-paint-element', 'render-blocking-resources', 'bootup-time', 'unused-javascript'])
        console.log(id, String(JSON.stringify(lhr.audits[id]?.details ?? lhr.audits[id]?.displayValue ?? null)).slice(0, 1500));
    }
  }
  console.log(
    '| screen | performance | accessibility | best practices | LCP | FCP | speed index | total blocking time |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  await chrome.kill();
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
