import pg from 'pg';

/** A LISTEN subscription (Database.subscribe). */
export interface Subscription {
  live(): boolean;
  close(): Promise<void>;
}

export const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** A dedicated node-postgres connection that LISTENs, reconnecting every second while it is down. */
export function pgSubscription(url: string, channel: string, h: { message(payload: string): void; reset(): void }): Promise<Subscription> {
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    live = false;
    h.reset();
    c.end().catch(() => undefined);
    if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), 1000).unref();
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (m) => {
      if (m.channel === channel) h.message(m.payload ?? '');
    });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      lost(c);
      throw err;
    }
    if (closed) return void (await c.end().catch(() => undefined));
    h.reset(); // anything cached before the LISTEN was in place is dropped
    live = true;
  };
  return connect()
    .catch(() => undefined)
    .then(() => ({
      live: () => live,
      close: async () => {
        closed = true;
        live = false;
        if (retry) clearTimeout(retry);
        const c = client;
        client = null;
        await c?.end().catch(() => undefined);
      },
    }));
}
