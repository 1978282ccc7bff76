import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { SmsSender } from '../../providers/messaging.js';
import type { SmsDeliveryReport, SmsGateway } from '../../providers/sms.js';

/** Delivery reports from the SMS gateway: POST here with the gateway's own body (Termii JSON, Africa's Talking form). */
export const SMS_REPORTS_PATH = '/api/public/sms/reports';
export const REPORT_BODY_LIMIT = 16 * 1024;

/** 08031234567 → 0803***4567: enough to tell messages apart in a report, not a stored phone number. */
export function maskPhone(phone: string): string {
  return phone.length > 7 ? `${phone.slice(0, 4)}***${phone.slice(-4)}` : '***';
}

/**
 * Sends through the gateway and records the message under the gateway's id, so its delivery report finds it.
 * A gateway failure throws: the outbox job retries it, and a verification code's sender sees the error.
 */
export function gatewaySms(
  db: Db,
  clock: Clock,
  gateway: SmsGateway,
  onSend?: (provider: string, result: 'sent' | 'error') => void,
): SmsSender {
  return {
    async send(sms) {
      let r;
      try {
        r = await gateway.send(sms);
      } catch (err) {
        onSend?.(gateway.id, 'error');
        throw err;
      }
      onSend?.(gateway.id, 'sent');
      const now = clock.now();
      await db.execute(sql`INSERT INTO sms_messages (provider, message_id, to_masked, status, created_at, updated_at)
                           VALUES (${r.provider}, ${r.messageId}, ${maskPhone(sms.to)}, 'sent', ${now}, ${now})
                           ON CONFLICT (provider, message_id) DO UPDATE SET to_masked = EXCLUDED.to_masked`);
    },
  };
}

/** Records a delivery report; a late "sent" never replaces a final "delivered" or "failed". */
export async function recordSmsReport(db: Db, clock: Clock, provider: string, report: SmsDeliveryReport): Promise<void> {
  const now = clock.now();
  await db.execute(sql`INSERT INTO sms_messages (provider, message_id, status, detail, created_at, updated_at)
                       VALUES (${provider}, ${report.messageId}, ${report.status}, ${report.detail}, ${now}, ${now})
                       ON CONFLICT (provider, message_id) DO UPDATE SET status = EXCLUDED.status, detail = EXCLUDED.detail, updated_at = EXCLUDED.updated_at
                       WHERE sms_messages.status = 'sent' OR EXCLUDED.status <> 'sent'`);
}
