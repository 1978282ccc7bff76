import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { MINUTE } from '../../kernel/clock.js';
import { ussdLanguage } from '../ussd/api.js';
import { CONVERSATION_IDLE_MS, type Conversation, type WhatsappDeps } from './deps.js';

/** Counts the message against the number's minute: the count so far (over WHATSAPP_RATE_PER_MINUTE: refused). */
export async function countMessage({ db, clock }: Pick<WhatsappDeps, 'db' | 'clock'>, phone: string): Promise<number> {
  const now = clock.now();
  const windowEnd = new Date(now.getTime() - MINUTE);
  const r = await one<{ hits: number }>(
    db,
    sql`INSERT INTO whatsapp_rate (phone, window_start, hits) VALUES (${phone}, ${now}, 1)
        ON CONFLICT (phone) DO UPDATE SET
          hits = CASE WHEN whatsapp_rate.window_start <= ${windowEnd} THEN 1 ELSE whatsapp_rate.hits + 1 END,
          window_start = CASE WHEN whatsapp_rate.window_start <= ${windowEnd} THEN ${now} ELSE whatsapp_rate.window_start END
        RETURNING hits`,
  );
  return r?.hits ?? 0;
}

/** Takes an inbound message id once: false when the webhook delivered it before (the key is the message's id). */
export async function firstDelivery({ db, clock }: Pick<WhatsappDeps, 'db' | 'clock'>, messageId: string, phone: string): Promise<boolean> {
  const r = await one(
    db,
    sql`INSERT INTO whatsapp_inbound (message_id, phone, received_at) VALUES (${messageId}, ${phone}, ${clock.now()})
        ON CONFLICT (message_id) DO NOTHING RETURNING 1 AS x`,
  );
  return Boolean(r);
}

/** The number's conversation; a new one (or one left alone 30 minutes) starts at the menu in the account's language. */
export async function loadConversation(
  deps: Pick<WhatsappDeps, 'db' | 'clock' | 'settings'>,
  phone: string,
  userId: string,
): Promise<Conversation> {
  const r = await one<{ state: Conversation; updated_at: Date | string }>(
    deps.db,
    sql`SELECT state, updated_at FROM whatsapp_conversations WHERE phone = ${phone}`,
  );
  if (r && deps.clock.now().getTime() - new Date(r.updated_at).getTime() < CONVERSATION_IDLE_MS) return r.state;
  const prefs = await deps.settings.getPreferences(userId);
  return { lang: r?.state.lang ?? ussdLanguage(prefs.preferences.language), place: { at: 'main' } };
}

export async function saveConversation({ db, clock }: Pick<WhatsappDeps, 'db' | 'clock'>, phone: string, conv: Conversation) {
  await db.execute(sql`INSERT INTO whatsapp_conversations (phone, state, updated_at) VALUES (${phone}, ${JSON.stringify(conv)}::jsonb, ${clock.now()})
                       ON CONFLICT (phone) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`);
}

export async function forgetConversation({ db }: Pick<WhatsappDeps, 'db'>, phone: string) {
  await db.execute(sql`DELETE FROM whatsapp_conversations WHERE phone = ${phone}`);
}

/** Inbound ids older than a week, the rate rows and finished PIN links older than a day go. */
export async function forgetOld({ db, clock }: Pick<WhatsappDeps, 'db' | 'clock'>) {
  const now = clock.now().getTime();
  await db.execute(sql`DELETE FROM whatsapp_inbound WHERE received_at < ${new Date(now - 7 * 24 * 60 * MINUTE)}`);
  await db.execute(sql`DELETE FROM whatsapp_rate WHERE window_start < ${new Date(now - 60 * MINUTE)}`);
  await db.execute(sql`DELETE FROM whatsapp_pin_requests WHERE created_at < ${new Date(now - 24 * 60 * MINUTE)}
                         AND (state = 'done' AND notified_at IS NOT NULL OR state = 'waiting')`);
  await db.execute(sql`DELETE FROM whatsapp_link_codes WHERE expires_at < ${new Date(now - 24 * 60 * MINUTE)}`);
}
