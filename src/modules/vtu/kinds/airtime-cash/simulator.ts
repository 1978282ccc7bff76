import { sql } from 'drizzle-orm';
import { one } from '../../../../db/client.js';
import { nairaStr, SimResponse, toKoboNum, type KindSimulator, type SimulatorEnv } from '../simulator.js';
import { signAirtimeCashWebhook } from './adapter.js';
import { airtimeCashWebhookPath } from './routing.js';

/**
 * Airtime-to-cash's simulator (kinds/simulator.ts): provider C's airtime-to-cash (issue 32), VTpass-style like its
 * purchases: POST /api/airtime-cash/request and /api/airtime-cash/requery under /sandbox/providers/c. Nobody dials a USSD code in the sandbox, so the sending
 * number's last four digits say what "arrives" (README "VTU sandbox"): by default the whole amount at once; 2222 the
 * whole amount after 5 s (pending); 3333 half of it (partial); 5555 nothing, so the request expires; 4444 the whole
 * amount, but every requery is held past the adapter's timeout (only the webhook can tell); 1111 the request is
 * refused; 5000 the request answers HTTP 500. The provider settles our float at 90% of what it received.
 * POST /sandbox/vtu/airtime-cash/notify {requestId} posts the request's current state to the service's webhook,
 * signed like the real provider's (call it twice to deliver a confirmation twice).
 */
export const SIM_RECEIVING_NUMBERS: Record<string, string> = {
  mtn: '08030000600',
  airtel: '08020000432',
  glo: '08050000131',
  etisalat: '08090000223',
};
const SETTLE_PERCENT = 90n;

type Magic = 'refuse' | 'http500' | 'pending' | 'partial' | 'never' | 'timeout' | 'none';
export function airtimeCashMagic(sender: string): Magic {
  switch (sender.replace(/\D/g, '').slice(-4)) {
    case '1111':
      return 'refuse';
    case '5000':
      return 'http500';
    case '2222':
      return 'pending';
    case '3333':
      return 'partial';
    case '5555':
      return 'never';
    case '4444':
      return 'timeout';
    default:
      return 'none';
  }
}

interface SimRequest {
  request_id: string;
  network: string;
  sender: string;
  amount: string;
  receiving_number: string;
  status: 'awaiting' | 'received' | 'expired' | 'failed';
  amount_received: string | null;
  receive_at: Date | null;
  expires_at: Date;
}

/** What the provider knows of a request now: the airtime "arrives" at receive_at, unless the request expired first. */
function stateOf(r: SimRequest, now: Date) {
  const arrives = r.receive_at ? new Date(r.receive_at).getTime() : null;
  const received = arrives !== null && arrives <= now.getTime() && arrives < new Date(r.expires_at).getTime();
  if (received) {
    const got = BigInt(r.amount_received ?? r.amount);
    return {
      status: 'received',
      amount_received: nairaStr(got),
      amount_settled: nairaStr((got * SETTLE_PERCENT) / 100n),
      transactionId: `sim-c-a2c-${r.request_id.slice(-10)}`,
    };
  }
  if (new Date(r.expires_at).getTime() <= now.getTime())
    return { status: 'expired', transactionId: `sim-c-a2c-${r.request_id.slice(-10)}` };
  return { status: 'awaiting', transactionId: `sim-c-a2c-${r.request_id.slice(-10)}` };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const find = (env: SimulatorEnv, requestId: string) =>
  one<SimRequest>(
    env.db,
    sql`SELECT request_id, network, sender, amount::text AS amount, receiving_number, status, amount_received::text AS amount_received,
               receive_at, expires_at FROM sandbox_airtime_cash WHERE request_id = ${requestId}`,
  );

/** Provider C's airtime-to-cash routes, and the sandbox control that posts its webhook. */
export const airtimeCashSimulator: KindSimulator = {
  routes: {
    c: [
      {
        method: 'POST',
        path: '/api/airtime-cash/request',
        handler: async (req, env) => {
          const { db, clock, config } = env;
          const b = req.body;
          const requestId = String(b.request_id ?? '');
          const network = String(b.serviceID ?? '');
          const sender = String(b.phone ?? '');
          const amount = toKoboNum(b.amount);
          if (!/^\d{12}\S{1,60}$/.test(requestId) || !SIM_RECEIVING_NUMBERS[network] || !/^0\d{10}$/.test(sender) || !amount)
            return { code: '011', response_description: 'INVALID ARGUMENTS' };
          const magic = airtimeCashMagic(sender);
          if (magic === 'http500') return new SimResponse(500, '<html><body>502 Bad Gateway</body></html>', 'text/html');
          if (magic === 'refuse') return { code: '016', response_description: 'This number cannot sell airtime on this network today' };
          const now = clock.now();
          const receiveAt = magic === 'never' ? null : new Date(now.getTime() + (magic === 'pending' ? env.pendingResolveMs : 0));
          const received = magic === 'partial' ? (amount / 2n / 100n) * 100n : amount;
          const row = await one<SimRequest>(
            db,
            sql`INSERT INTO sandbox_airtime_cash (request_id, network, sender, amount, receiving_number, status, amount_received, receive_at, expires_at, created_at)
                VALUES (${requestId}, ${network}, ${sender}, ${amount}, ${SIM_RECEIVING_NUMBERS[network]}, 'awaiting', ${received}, ${receiveAt},
                        ${new Date(now.getTime() + config.airtimeCash.expiresMs)}, ${now})
                ON CONFLICT (request_id) DO NOTHING
                RETURNING request_id`,
          );
          if (!row) return { code: '014', response_description: 'REQUEST ID ALREADY EXIST' };
          return {
            code: '000',
            response_description: 'REQUEST ACCEPTED',
            requestId,
            content: {
              request_id: requestId,
              transactionId: `sim-c-a2c-${requestId.slice(-10)}`,
              receiving_number: SIM_RECEIVING_NUMBERS[network],
              amount: nairaStr(amount),
              status: 'awaiting',
            },
          };
        },
      },
      {
        method: 'POST',
        path: '/api/airtime-cash/requery',
        handler: async (req, env) => {
          const requestId = String(req.body.request_id ?? '');
          const row = requestId ? await find(env, requestId) : null;
          if (!row) return { code: '015', response_description: 'INVALID REQUEST ID' };
          if (airtimeCashMagic(row.sender) === 'timeout') await sleep(env.config.vtu.sandboxHoldMs);
          return {
            code: '000',
            response_description: 'OK',
            requestId,
            content: { request_id: requestId, ...stateOf(row, env.clock.now()) },
          };
        },
      },
    ],
  },
  controls: [
    {
      // Sandbox control: the provider's webhook for one request, as it stands now, signed with the provider's secret.
      method: 'POST',
      path: '/sandbox/vtu/airtime-cash/notify',
      handler: async (req, env) => {
        const requestId = String(req.body.requestId ?? '');
        const row = requestId ? await find(env, requestId) : null;
        if (!row)
          return new SimResponse(404, {
            ok: false,
            error: { code: 'NOT_FOUND', message: 'No such airtime-to-cash request at provider C' },
          });
        const payload = JSON.stringify({ event: 'airtime_cash.update', request_id: requestId, ...stateOf(row, env.clock.now()) });
        const status = await env.post(
          airtimeCashWebhookPath('c'),
          {
            'content-type': 'application/json',
            'x-provider-signature': signAirtimeCashWebhook(env.config.vtu.providers.c.secret ?? '', payload),
          },
          payload,
        );
        return { ok: true, delivered: status === 200, status, payload: JSON.parse(payload) };
      },
    },
  ],
};
