import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import { normalizePhone } from '../kernel/phone.js';
import { SMS_REPORTS_PATH } from '../modules/notifications/sms.js';
import { termiiSignature } from '../providers/sms.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../lib/logger.js';
import type { LoopbackTransport } from '../providers/http-transport.js';

/** Where the sandbox's SMS gateways live (the adapters' SMS_BASE_URL in the sandbox). */
export const SMS_SIMULATOR_PATH = '/sandbox/sms-gateway';

type SmsSimServices = { upstream: LoopbackTransport; log: Logger; db: Db; clock: Clock; config: Config };

const reportUrl = (config: Config, provider: string) => `${config.publicUrl}${SMS_REPORTS_PATH}/${provider}`;
const keyOk = (config: Config, given: unknown) => typeof given === 'string' && safeEqual(given, config.sms.apiKey);

/** Puts the message in the sandbox inbox; null for a number that is none, `unavailable` for the 0000 ending. */
async function deliver(
  { db, clock }: SmsSimServices,
  to: string,
  text: string,
): Promise<{ local: string; fail: boolean } | { unavailable: true } | null> {
  const local = normalizePhone(to);
  if (!local) return null;
  if (local.endsWith('0000')) return { unavailable: true };
  await db.execute(
    sql`INSERT INTO sandbox_messages (channel, "to", subject, text, created_at) VALUES ('sms', ${local}, NULL, ${text}, ${clock.now()})`,
  );
  return { local, fail: local.endsWith('9999') };
}

async function report(services: SmsSimServices, url: string, headers: Record<string, string>, body: string) {
  try {
    await services.upstream.send(url, { method: 'POST', headers, body, timeoutMs: 10_000 });
  } catch (err) {
    services.log.warn({ err: (err as Error).message }, 'sandbox SMS gateway: delivery report failed');
  }
}

async function termiiSend(services: SmsSimServices, req: FastifyRequest, reply: FastifyReply) {
  const { clock, config } = services;
  const b = (req.body ?? {}) as Record<string, unknown>;
  if (!keyOk(config, b.api_key)) return reply.status(401).send({ message: 'Invalid API key' });
  if (typeof b.to !== 'string' || typeof b.sms !== 'string' || !b.sms || typeof b.from !== 'string') {
    return reply.status(400).send({ message: 'to, from and sms are required' });
  }
  const r = await deliver(services, b.to, b.sms);
  if (!r) return reply.status(400).send({ message: 'Invalid phone number' });
  if ('unavailable' in r) return reply.status(503).send({ message: 'Service temporarily unavailable' });
  const messageId = `3017${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const body = JSON.stringify({
    type: 'outbound',
    id: randomUUID(),
    message_id: messageId,
    receiver: b.to,
    sender: b.from,
    message: b.sms,
    sent_at: clock.now().toISOString(),
    cost: '4.00',
    status: r.fail ? 'DND Active on Phone Number' : 'Delivered',
    channel: String(b.channel ?? 'generic'),
  });
  await report(
    services,
    reportUrl(config, 'termii'),
    { 'content-type': 'application/json', 'x-termii-signature': termiiSignature(config.sms.webhookSecret ?? '', body) },
    body,
  );
  return { code: 'ok', message_id: messageId, message: 'Successfully Sent', balance: 1000, user: 'Sandbox' };
}

async function africasTalkingSend(services: SmsSimServices, req: FastifyRequest, reply: FastifyReply) {
  const { config } = services;
  if (!keyOk(config, req.headers.apikey)) return reply.status(401).send('The supplied authentication is invalid');
  const form = req.body instanceof URLSearchParams ? req.body : new URLSearchParams();
  const to = form.get('to') ?? '';
  const message = form.get('message') ?? '';
  if (!form.get('username') || !to || !message) return reply.status(400).send('username, to and message are required');
  const r = await deliver(services, to, message);
  if (!r)
    return {
      SMSMessageData: {
        Message: 'Sent to 0/1 Total Cost: 0',
        Recipients: [{ statusCode: 403, number: to, status: 'InvalidPhoneNumber', cost: '0', messageId: 'None' }],
      },
    };
  if ('unavailable' in r) return reply.status(503).send('Service Unavailable');
  const messageId = `ATXid_${randomUUID().replace(/-/g, '')}`;
  const fields: Record<string, string> = {
    id: messageId,
    status: r.fail ? 'Rejected' : 'Success',
    phoneNumber: to,
    networkCode: '62130',
    retryCount: '0',
  };
  if (r.fail) fields.failureReason = 'DeliveryFailure';
  const token = encodeURIComponent(config.sms.webhookSecret ?? '');
  await report(
    services,
    `${reportUrl(config, 'africastalking')}?token=${token}`,
    { 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams(fields).toString(),
  );
  return {
    SMSMessageData: {
      Message: 'Sent to 1/1 Total Cost: NGN 4.0000',
      Recipients: [{ statusCode: 101, number: to, status: 'Success', cost: 'NGN 4.0000', messageId }],
    },
  };
}

/**
 * The SMS gateways' APIs as the adapters call them: Termii's `POST /api/sms/send` (JSON, api_key in
 * the body) and Africa's Talking's `POST /version1/messaging` (form, `apiKey` header). A message lands in the
 * sandbox inbox (`GET /sandbox/sms?to=`), then the gateway posts its delivery report to our webhook before it
 * answers. Magic numbers: ending 0000, the gateway answers 503 (the outbox retries); ending 9999, accepted but
 * the report says it failed (DND for Termii, Rejected for Africa's Talking).
 */
export async function registerSmsSimulator(app: FastifyInstance, services: SmsSimServices) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, new URLSearchParams(body as string)),
    );
    scope.post(`${SMS_SIMULATOR_PATH}/termii/api/sms/send`, (req, reply) => termiiSend(services, req, reply));
    scope.post(`${SMS_SIMULATOR_PATH}/africastalking/version1/messaging`, (req, reply) => africasTalkingSend(services, req, reply));
  });
}
