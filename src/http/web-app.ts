import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built customer app (docs/design.md §13) from the same process: hashed assets cached for a year,
 * the service worker and the page never cached, every other GET that asks for HTML answered with the page (the
 * app's router takes it from there). The files are read once at start with their brotli and gzip forms, which
 * `npm run build` writes next to each file (name.br, name.gz); a file without them is compressed at start.
 * The API's paths keep their JSON answers, including 404s.
 */
const API_PATHS = /^\/(_serverFn|api|docs|sandbox|healthz|readyz|metrics|\.well-known)(\/|$)/;

/** A strict policy for the app: no inline or remote script; styles inline (Mantine sets CSS variables at run time). */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  type: string;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  cache: string;
}

/** name.br or name.gz next to name: a compressed form, not a file of its own. */
function precompressed(file: string): boolean {
  return /\.(br|gz)$/.test(file) && fs.existsSync(file.slice(0, -3));
}

/** The build's compressed form of `source`, when it is there and not older than the file (else null). */
function readFresh(file: string, source: string): Buffer | null {
  try {
    return fs.statSync(file).mtimeMs >= fs.statSync(source).mtimeMs ? fs.readFileSync(file) : null;
  } catch {
    return null;
  }
}

function load(dir: string): Map<string, Asset> {
  const files = new Map<string, Asset>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!precompressed(full)) {
        const url = '/' + path.relative(dir, full).split(path.sep).join('/');
        const ext = path.extname(entry.name);
        const body = fs.readFileSync(full);
        const compressible = /text|javascript|json|svg|manifest/.test(TYPES[ext] ?? '') && body.length > 512;
        files.set(url, {
          type: TYPES[ext] ?? 'application/octet-stream',
          body,
          ...(compressible
            ? {
                br:
                  readFresh(`${full}.br`, full) ?? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
                gzip: readFresh(`${full}.gz`, full) ?? zlib.gzipSync(body, { level: 9 }),
              }
            : {}),
          cache: url.startsWith('/assets/')
            ? 'public, max-age=31536000, immutable'
            : url === '/sw.js' || url === '/index.html'
              ? 'no-cache'
              : 'public, max-age=86400',
        });
      }
    }
  };
  walk(dir);
  return files;
}

function send(req: FastifyRequest, reply: FastifyReply, a: Asset) {
  const accept = String(req.headers['accept-encoding'] ?? '');
  reply.header('content-type', a.type).header('cache-control', a.cache).header('vary', 'accept-encoding');
  if (a.type.startsWith('text/html')) reply.header('content-security-policy', APP_CSP);
  if (a.br && /\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(a.br);
  if (a.gzip && /\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send(a.gzip);
  return reply.send(a.body);
}

/** Mounts the app when `dir` holds a build (index.html); returns whether it did. */
export function registerWebApp(app: FastifyInstance, dir: string | undefined): boolean {
  if (!dir || !fs.existsSync(path.join(dir, 'index.html'))) return false;
  const files = load(dir);
  const page = files.get('/index.html')!;
  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    reply.status(404).send({ ok: false, error: { code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}` } });
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url.split('?')[0];
    const file = files.get(url);
    if (file) return send(req, reply, file);
    if (API_PATHS.test(url) || url.startsWith('/assets/') || !String(req.headers.accept ?? '').includes('text/html'))
      return notFound(req, reply);
    return send(req, reply, page);
  };
  app.get('/', handler);
  app.get('/*', handler);
  return true;
}
