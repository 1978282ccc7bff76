import { createHmac } from 'node:crypto';
import { safeEqual } from '../lib/crypto.js';
import type { HttpTransport } from './http-transport.js';

/**
 * SMS gateways: Termii's HTTP API, and Africa's Talking behind the same interface. Both take a
 * Nigerian number in international form (234XXXXXXXXXX), answer with the gateway's message id, and later post a
 * delivery report to our webhook (src/modules/notifications/sms-reports.ts). A refused or failed call throws, so
 * the outbox job retries it with backoff.
 */
export type SmsProviderId = 'termii' | 'africastalking';
export type SmsStatus = 'sent' | 'delivered' | 'failed';

export interface SmsSendResult {
  provider: SmsProviderId;
  messageId: string;
}

export interface SmsDeliveryReport {
  messageId: string;
  status: SmsStatus;
  /** The gateway's own words (e.g. "DND Active on Phone Number"). */
  detail: string;
}

export interface SmsGateway {
  id: SmsProviderId;
  send(sms: { to: string; text: string }): Promise<SmsSendResult>;
  /** Checks a delivery report's authenticity (signature or shared token); false refuses it. */
  verifyReport(raw: Buffer, headers: Record<string, string | undefined>, query: Record<string, string | undefined>): boolean;
  /** The report's message id and status; null when the body is not a delivery report. */
  parseReport(raw: Buffer, contentType: string | undefined): SmsDeliveryReport | null;
}

export interface SmsGatewayOptions {
  baseUrl: string;
  apiKey: string;
  senderId: string;
  /** Termii's route: `dnd` reaches numbers on the do-not-disturb list (transactional messages), `generic` does not. */
  channel: 'dnd' | 'generic';
  /** Africa's Talking's account name. */
  username?: string;
  /** Shared secret: Termii signs reports with it (HMAC-SHA512); Africa's Talking reports carry it as `?token=`. */
  webhookSecret?: string;
  transport: HttpTransport;
  timeoutMs?: number;
}

export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

/** 0803... or +234803... → 234803... (the form both gateways take). */
export function internationalNumber(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (/^0\d{10}$/.test(digits)) return `234${digits.slice(1)}`;
  return digits;
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** Termii delivery statuses (its "Events and reports" documentation) mapped onto ours. */
function termiiStatus(s: string): SmsStatus {
  const v = s.toLowerCase();
  if (v === 'delivered') return 'delivered';
  if (v === 'sent' || v === 'message sent' || v === 'pending' || v === 'queued') return 'sent';
  return 'failed'; // Message Failed, Rejected, Expired, DND Active on Phone Number, ...
}

export function termiiGateway(opts: SmsGatewayOptions): SmsGateway {
  const base = opts.baseUrl.replace(/\/$/, '');
  return {
    id: 'termii',
    async send(sms) {
      const res = await opts.transport(`${base}/api/sms/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          to: internationalNumber(sms.to),
          from: opts.senderId,
          sms: sms.text,
          type: 'plain',
          channel: opts.channel,
          api_key: opts.apiKey,
        }),
        timeoutMs: opts.timeoutMs,
        upstream: 'sms:termii',
      });
      const body = parseJson(res.text);
      const messageId = str(body?.message_id);
      if (res.status >= 200 && res.status < 300 && messageId) return { provider: 'termii', messageId };
      throw new SmsSendError(
        `Termii refused the message (HTTP ${res.status}): ${str(body?.message) || res.text.slice(0, 200)}`,
        res.status,
      );
    },
    verifyReport(raw, headers) {
      const signature = headers['x-termii-signature'];
      if (!opts.webhookSecret || !signature) return false;
      return safeEqual(createHmac('sha512', opts.webhookSecret).update(raw).digest('hex'), signature.trim().toLowerCase());
    },
    parseReport(raw) {
      const body = parseJson(raw.toString('utf8'));
      const messageId = str(body?.message_id);
      const status = str(body?.status);
      if (!messageId || !status) return null;
      return { messageId, status: termiiStatus(status), detail: status.slice(0, 200) };
    },
  };
}

/** Africa's Talking delivery statuses mapped onto ours. */
function africasTalkingStatus(s: string): SmsStatus {
  const v = s.toLowerCase();
  if (v === 'success') return 'delivered';
  if (v === 'sent' || v === 'submitted' || v === 'buffered') return 'sent';
  return 'failed'; // Failed, Rejected, AbsentSubscriber, ...
}

export function africasTalkingGateway(opts: SmsGatewayOptions): SmsGateway {
  const base = opts.baseUrl.replace(/\/$/, '');
  return {
    id: 'africastalking',
    async send(sms) {
      const form = new URLSearchParams({
        username: opts.username ?? '',
        to: `+${internationalNumber(sms.to)}`,
        message: sms.text,
        from: opts.senderId,
      });
      const res = await opts.transport(`${base}/version1/messaging`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', apikey: opts.apiKey },
        body: form.toString(),
        timeoutMs: opts.timeoutMs,
        upstream: 'sms:africastalking',
      });
      const body = parseJson(res.text);
      const data = body?.SMSMessageData as
        { Message?: string; Recipients?: { statusCode?: number; status?: string; messageId?: string }[] } | undefined;
      const r = data?.Recipients?.[0];
      // 100 Processed, 101 Sent, 102 Queued: accepted; anything else is a refusal for this recipient.
      if (res.status >= 200 && res.status < 300 && r?.messageId && [100, 101, 102].includes(Number(r.statusCode)))
        return { provider: 'africastalking', messageId: r.messageId };
      throw new SmsSendError(
        `Africa's Talking refused the message (HTTP ${res.status}): ${r?.status ?? data?.Message ?? res.text.slice(0, 200)}`,
        res.status,
      );
    },
    verifyReport(_raw, _headers, query) {
      return Boolean(opts.webhookSecret && query.token && safeEqual(query.token, opts.webhookSecret));
    },
    parseReport(raw) {
      const form = new URLSearchParams(raw.toString('utf8'));
      const messageId = form.get('id') ?? '';
      const status = form.get('status') ?? '';
      if (!messageId || !status) return null;
      const reason = form.get('failureReason');
      return { messageId, status: africasTalkingStatus(status), detail: (reason ? `${status}: ${reason}` : status).slice(0, 200) };
    },
  };
}

export const SMS_DEFAULT_BASE_URLS: Record<SmsProviderId, string> = {
  termii: 'https://api.ng.termii.com',
  africastalking: 'https://api.africastalking.com',
};

export function createSmsGateway(provider: SmsProviderId, opts: SmsGatewayOptions): SmsGateway {
  return provider === 'termii' ? termiiGateway(opts) : africasTalkingGateway(opts);
}

/** Termii's report signature: HMAC-SHA512 of the body under the shared secret, hex (the simulator signs this way). */
export function termiiSignature(secret: string, raw: Buffer | string): string {
  return createHmac('sha512', secret).update(raw).digest('hex');
}
