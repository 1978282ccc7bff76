import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Bodies up to this size are read to the end before an early answer (413, 404, 415...) is sent. */
export const DRAIN_LIMIT_BYTES = 128 * 1024 * 1024;
/** A client that sends slower than this is not waited for: the answer goes out and the connection closes. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * An answer sent before the request body was read (a 413 decided from Content-Length, a 404 or 415) would make
 * the server close the socket under a client that is still uploading: the client sees EPIPE or a reset, not the
 * answer. So the rest of the body is read and thrown away first, up to DRAIN_LIMIT_BYTES; past that, or after
 * DRAIN_TIMEOUT_MS, the answer is sent with `Connection: close` and the upload is cut after it.
 */
export function drainUnreadBodies(app: FastifyInstance) {
  // A callback hook, not an async one: every answer passes here, and almost all have read their body.
  app.addHook('onSend', (req, reply, payload, done) => {
    const raw = req.raw;
    if (raw.complete || raw.destroyed || raw.readableEnded) return done(null, payload);
    void drain(raw).then((drained) => {
      if (!drained) reply.header('connection', 'close');
      done(null, payload);
    });
  });
}

/** Reads `raw` to its end, throwing the bytes away; false when it stopped at the size or time limit. */
function drain(raw: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let read = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('close', onEnd);
      if (!drained) raw.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_LIMIT_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), DRAIN_TIMEOUT_MS);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onEnd);
    raw.once('error', onError);
    raw.resume();
  });
}
