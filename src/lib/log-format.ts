/**
 * Log lines for a person at a terminal (LOG_FORMAT=pretty, the sandbox's `npm start`): pino writes its JSON line,
 * redaction already applied, and this turns it into one line of text: time, level, message, the request's method,
 * path, status and duration, then the other fields as key=value. Everything else (production, tests, the harness's
 * scan of every line for secrets) keeps pino's JSON.
 */
export type LogFormat = 'json' | 'pretty';

/** Where the text goes: process.stdout, or a test's capture. */
export interface TextOut {
  write(text: string): unknown;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLORS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[41m' };
/** pino's own fields and those drawn in their own place rather than as key=value. */
const SHOWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v', 'req', 'res', 'responseTime', 'reqId', 'err']);
/** How long a field's value may be before it is cut (a provider's answer, a long list). */
const MAX_VALUE = 120;
/** Requests whose "incoming" line was seen and whose "completed" line was not yet (the method and path to show then). */
const MAX_OPEN_REQUESTS = 1_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const clock = (t: unknown) => {
  const d = typeof t === 'number' ? new Date(t) : new Date();
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
};

function value(v: unknown): string {
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s === undefined) s = String(v);
  if (s.length > MAX_VALUE) s = `${s.slice(0, MAX_VALUE - 1)}…`;
  return typeof v === 'string' && (s === '' || /[\s"=]/.test(s)) ? JSON.stringify(s) : s;
}

/** An error as one phrase: its type, message and the first place in the stack (or the text a line logged instead). */
function errorText(err: unknown): string {
  if (typeof err !== 'object' || err === null) return value(err);
  const e = err as { type?: string; message?: string; stack?: string; code?: string };
  const at = e.stack
    ?.split('\n')
    .find((l) => /^\s+at /.test(l))
    ?.trim()
    .replace(/^at /, '');
  const text = `${e.type ?? 'Error'}${e.code ? ` ${e.code}` : ''}: ${e.message ?? ''}`;
  return JSON.stringify(at ? `${text} (at ${at})` : text);
}

/**
 * A formatter of pino's JSON lines into text lines (ending in a newline). It remembers a request's method and path
 * from Fastify's "incoming request" line, which it drops, and shows them on the "request completed" one: one line a
 * request. A line that is not JSON is passed through as it is.
 */
export function prettyLines(opts: { color?: boolean } = {}): (line: string) => string {
  const open = new Map<string, string>();
  return (line) => {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return line.endsWith('\n') ? line : `${line}\n`;
    }
    if (typeof o !== 'object' || o === null) return `${line.trimEnd()}\n`;
    const req = o.req as { method?: string; url?: string } | undefined;
    const res = o.res as { statusCode?: number } | undefined;
    const reqId = typeof o.reqId === 'string' ? o.reqId : undefined;
    if (o.msg === 'incoming request' && req && reqId) {
      if (open.size >= MAX_OPEN_REQUESTS) open.delete(open.keys().next().value!);
      open.set(reqId, `${req.method} ${req.url}`);
      return '';
    }
    const level = typeof o.level === 'number' ? o.level : 30;
    let label = (LEVELS[level] ?? String(level)).padEnd(5);
    if (opts.color && COLORS[level]) label = `${COLORS[level]}${label}\x1b[0m`;
    const head = `${clock(o.time)} ${label} ${typeof o.msg === 'string' ? o.msg : ''}`;
    const parts: string[] = [];
    const request = req ? `${req.method} ${req.url}` : reqId ? open.get(reqId) : undefined;
    if (reqId && res) open.delete(reqId);
    if (request) parts.push(request);
    if (res?.statusCode !== undefined) parts.push(String(res.statusCode));
    if (typeof o.responseTime === 'number') parts.push(`${Math.round(o.responseTime)}ms`);
    if (o.err !== undefined) parts.push(`err=${errorText(o.err)}`);
    for (const [k, v] of Object.entries(o)) if (!SHOWN.has(k) && v !== undefined) parts.push(`${k}=${value(v)}`);
    if (reqId) parts.push(reqId);
    return parts.length ? `${head}  ${parts.join(' ')}\n` : `${head}\n`;
  };
}

/** A pino destination that writes the text lines to `out` (pino hands it each JSON line, redacted). */
export function prettyStream(out: TextOut, opts: { color?: boolean } = {}): { write(line: string): void } {
  const format = prettyLines(opts);
  return {
    write(line) {
      const text = format(line);
      if (text) out.write(text);
    },
  };
}
