import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a server's time goes, from a V8 .cpuprofile (`node --cpu-prof`; `BENCH_CPU_PROF=1 npm run bench` writes one
 * per bench server into bench/profiles/, with the windows of its measured runs in bench/profiles/windows.json).
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [--window <label>] [--top N] [--callers <function>]
 *
 * Self time (samples whose innermost frame is the function) grouped by area, then the top functions; native socket
 * writes are put with their nearest caller (pg, HTTP answers, outgoing HTTP); --callers prints who calls one
 * function. With
 * --window, only samples inside that run of windows.json (same pid, monotonic clock: V8 and process.hrtime share
 * it on Linux), so sign-ins, PIN hashing and warm-ups are left out. The V8 profiler samples wall time on the main
 * thread: '(idle)' is the event loop waiting, and a system call that gets the process descheduled (a socket write
 * that wakes a PostgreSQL backend on a busy core) counts as that call.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface Window {
  label: string;
  pid: number;
  /** Microseconds on the monotonic clock (process.hrtime.bigint() / 1000). */
  start: number;
  end: number;
}

const AREAS: [string, RegExp][] = [
  ['zod validation', /node_modules\/zod\//],
  ['drizzle SQL building', /node_modules\/drizzle-orm\//],
  [
    'pg protocol (pg, pg-protocol, pg-pool, pg-types)',
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-\w+)\//,
  ],
  [
    'fastify/http (fastify, its plugins, pino, JSON)',
    /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|pino|sonic-boom|secure-json-parse|fast-uri|ajv|helmet|toad-cache|process-warning|rfdc|abstract-logging|thread-stream)/,
  ],
  [
    'node http/net/streams',
    /^node:(_http|http|net|stream|internal\/(http|streams|net|stream_base|js_stream|timers)|events|internal\/async_hooks|internal\/process\/task_queues)/,
  ],
  ['undici (outgoing HTTP)', /node_modules\/undici|node:internal\/deps\/undici/],
  ['our code (src/)', /\/src\//],
  ['other node_modules', /node_modules\//],
  ['other node internals', /^node:/],
];

export function areaOf(frame: Node['callFrame']): string {
  const name = frame.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)') return 'idle (event loop waiting)';
  if (name === '(program)') return 'V8/native (program)';
  if (!frame.url)
    return name === 'writev' || name === 'writeUtf8String' || name === 'writeBuffer' ? 'socket writes (native)' : 'native builtins';
  for (const [area, re] of AREAS) if (re.test(frame.url)) return area;
  return 'other';
}

/** Who a native frame works for: the area of its nearest caller in pg, HTTP (in or out) or elsewhere. */
function writerOf(id: number, parent: Map<number, number>, byId: Map<number, Node>): string {
  for (let p = parent.get(id); p !== undefined; p = parent.get(p)) {
    const url = byId.get(p)!.callFrame.url;
    if (/node_modules\/(pg|pg-protocol|pg-pool)\//.test(url)) return 'socket writes to PostgreSQL (pg)';
    if (/node_modules\/undici|node:_http_client|node:_http_agent/.test(url)) return 'socket writes, outgoing HTTP';
    if (/node_modules\/(fastify|@fastify)|node:_http_server|node:_http_outgoing/.test(url)) return 'socket writes, HTTP answers';
  }
  return 'socket writes (native), other';
}

export function summarise(profile: Profile, window?: { start: number; end: number }, top = 15, callersOf?: string) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const callers = new Map<string, number>();
  const self = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (window && (t < window.start || t > window.end)) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
    total += dt;
  }
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    let area = areaOf(f);
    if (area === 'socket writes (native)') area = writerOf(id, parent, byId);
    if (callersOf && f.functionName === callersOf) {
      const chain: string[] = [];
      for (let p = parent.get(id); p !== undefined && chain.length < 3; p = parent.get(p)) {
        const c = byId.get(p)!.callFrame;
        chain.push(
          `${c.functionName || '(anonymous)'} ${c.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist-bench\/)?/, '')}:${c.lineNumber + 1}`,
        );
      }
      const key = chain.join(' < ');
      callers.set(key, (callers.get(key) ?? 0) + us);
    }
    areas.set(area, (areas.get(area) ?? 0) + us);
    const where = f.url
      ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist-bench\/)?/, '')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where} [${area}]`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const busy = total - (areas.get('idle (event loop waiting)') ?? 0);
  const pct = (us: number, of: number) => `${((us / of) * 100).toFixed(1)}%`;
  const lines = [
    `sampled ${(total / 1e6).toFixed(1)} s, busy ${pct(busy, total)} of it`,
    '',
    '| area | self time | of busy |',
    '|---|---|---|',
  ];
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]))
    lines.push(`| ${area} | ${pct(us, total)} | ${area.startsWith('idle') ? '' : pct(us, busy)} |`);
  lines.push('', `| top ${top} functions by self time | of busy |`, '|---|---|');
  for (const [fn, us] of [...fns]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    lines.push(`| ${fn} | ${pct(us, busy)} |`);
  if (callersOf) {
    lines.push('', `| callers of ${callersOf} (three frames up) | of busy |`, '|---|---|');
    for (const [c, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`| ${c} | ${pct(us, busy)} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const file = args.find((a) => a.endsWith('.cpuprofile'));
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [--window <label>] [--top N] [--callers <function>]');
    process.exit(2);
  }
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  let window: Window | undefined;
  const label = opt('--window');
  if (label) {
    const windowsFile = path.join(path.dirname(file), 'windows.json');
    const windows = JSON.parse(fs.readFileSync(windowsFile, 'utf8')) as Window[];
    const pid = Number(/\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(file)?.[1]);
    window = windows.find((w) => w.label === label && (!pid || w.pid === pid));
    if (!window) throw new Error(`no window "${label}" for pid ${pid} in ${windowsFile}`);
  }
  console.log(`${path.basename(file)}${window ? `, window "${window.label}"` : ''}`);
  console.log(summarise(profile, window, Number(opt('--top') ?? 15), opt('--callers')));
}
