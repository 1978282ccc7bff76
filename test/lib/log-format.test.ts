import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { prettyLines } from '../../src/lib/log-format.js';
import { createLogger } from '../../src/lib/logger.js';

/** A logger writing LOG_FORMAT=pretty's text into `lines`. */
function capture() {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', format: 'pretty', stream: { write: (text: string) => void lines.push(text) } });
  return { lines, log };
}
const at = (t: number) => {
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
};

describe('LOG_FORMAT=pretty', () => {
  it('turns a pino JSON line into one line: time, level, message, then the fields', () => {
    const t = Date.UTC(2026, 0, 5, 9, 7, 3, 42);
    const format = prettyLines();
    const line = JSON.stringify({
      level: 40,
      time: t,
      pid: 7,
      hostname: 'h',
      msg: 'vtu provider answered',
      transactionId: 'vtu_01',
      provider: 'c',
      outcome: 'pending',
      note: 'two words',
      amounts: [1, 2],
    });
    expect(format(`${line}\n`)).toBe(
      `${at(t)} WARN  vtu provider answered  transactionId=vtu_01 provider=c outcome=pending note="two words" amounts=[1,2]\n`,
    );
    expect(format('not json')).toBe('not json\n');
  });

  it("shows an error's type, message and where it was thrown, on the same line", () => {
    const { lines, log } = capture();
    log.error({ err: new TypeError('boom'), errorId: 'err_1' }, 'unhandled error');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} ERROR unhandled error {2}err="TypeError: boom \(at .+log-format\.test\.ts:\d+:\d+\)" errorId=err_1\n$/,
    );
  });

  it('keeps the redaction: the secrets pino censors never reach the text', () => {
    const { lines, log } = capture();
    log.info({ pin: '1234', body: { code: '654321', nin: '12345678901', token: 'tok_secret' }, who: 'ada' }, 'sign-in');
    const text = lines.join('');
    for (const secret of ['1234', '654321', '12345678901', 'tok_secret']) expect(text).not.toContain(secret);
    expect(text).toContain('pin=[redacted]');
    expect(text).toContain('"[redacted]"');
    expect(text).toContain('who=ada');
  });

  it("draws a request as one line: method, path (its signature redacted), status and time, under the request's id", async () => {
    const { lines, log } = capture();
    const app = Fastify({ loggerInstance: log, genReqId: () => 'req_TEST' });
    app.get('/files/:id', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/files/f1?sig=s3cr3t&exp=9', headers: { authorization: 'Bearer abc.def' } });
    await app.close();
    const text = lines.join('');
    expect(text).not.toContain('s3cr3t');
    expect(text).not.toContain('abc.def');
    expect(text).not.toContain('incoming request');
    const done = lines.filter((l) => l.includes('request completed'));
    expect(done).toHaveLength(1);
    expect(done[0]).toMatch(/ INFO {2}request completed {2}GET \/files\/f1\?sig=\[redacted\]&exp=9 200 \d+ms req_TEST\n$/);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .every((l) => !l.startsWith('{')),
    ).toBe(true);
  });

  it('is honoured in the sandbox only: production and every other run keep JSON', () => {
    expect(loadConfig({ SANDBOX: 'true' }).logFormat).toBe('json');
    expect(loadConfig({ SANDBOX: 'true', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ SANDBOX: 'false', NODE_ENV: 'development', LOG_FORMAT: 'pretty' }).logFormat).toBe('json');
  });
});
