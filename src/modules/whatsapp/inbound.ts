import { sql } from 'drizzle-orm';
import { normalizePhone } from '../../kernel/phone.js';
import { channelOpen } from '../console/api.js';
import { ownerOfVerifiedPhone, profileOf } from '../identity/api.js';
import { RECENT_VERIFICATION_MS, readsFor, ussdLanguage } from '../ussd/api.js';
import { countMessage, firstDelivery, forgetConversation, loadConversation, saveConversation } from './conversation.js';
import type { Caller, Conversation, Inbound, Out, WhatsappDeps } from './deps.js';
import { linkByCode, linkOf, unlink, waIdOf } from './links.js';
import { answer, mainMenu, type ChatContext } from './menu.js';
import { text } from './messages.js';
import { createPinRequest } from './pin.js';
import { chatTexts } from './texts.js';

const LINK = /^link\s+(\d{6})$/i;

async function say(deps: WhatsappDeps, waId: string, ...messages: Out[]) {
  for (const m of messages) {
    try {
      await deps.sender.send(waId, m);
    } catch (err) {
      deps.log.warn({ err: (err as Error).message }, 'whatsapp: a reply was not sent');
    }
  }
}

function chatContext(deps: WhatsappDeps, caller: Caller, conv: Conversation): ChatContext {
  return {
    ...readsFor(deps, { userId: caller.userId, ownPhone: caller.phone, recent: caller.recent }),
    pinLink: (action, summary, total) => createPinRequest(deps, caller, action, summary, total, conv.lang),
    setLanguage: async (lang) => {
      await deps.settings.updatePreferences(caller.userId, { language: lang });
    },
  };
}

/** The linked caller, or null: recent when the link or the number's verification is under 30 days old (recycled?). */
async function callerOf(deps: WhatsappDeps, phone: string, waId: string): Promise<Caller | null> {
  const link = await linkOf(deps, phone);
  if (!link) return null;
  const profile = await profileOf(deps.db, link.userId);
  if (!profile || profile.status !== 'active') return null;
  const now = deps.clock.now().getTime();
  const verified = await ownerOfVerifiedPhone(deps.db, phone);
  const recent =
    now - link.linkedAt.getTime() < RECENT_VERIFICATION_MS ||
    (verified !== null && now - verified.phoneVerifiedAt.getTime() < RECENT_VERIFICATION_MS);
  return { phone, waId, userId: link.userId, kycTier: profile.kycTier, recent };
}

/** "LINK <code>": the number linked (and the menu), or why not. */
async function link(deps: WhatsappDeps, phone: string, waId: string, code: string) {
  const t = chatTexts('en');
  const outcome = await linkByCode(deps, phone, code);
  if (outcome === 'bad_code') return say(deps, waId, text(t.badCode));
  if (outcome === 'taken') return say(deps, waId, text(t.takenNumber));
  await forgetConversation(deps, phone);
  const caller = (await callerOf(deps, phone, waId))!;
  const conv = await loadConversation(deps, phone, caller.userId);
  const lt = chatTexts(conv.lang);
  await saveConversation(deps, phone, conv);
  return say(deps, waId, text(`${lt.linked}\n${lt.unlinkHint}`), mainMenu(lt));
}

/** One inbound message, taken once: the channel switch, the number's rate, linking, then the menu. */
export async function handleInbound(deps: WhatsappDeps, msg: Inbound): Promise<void> {
  const phone = normalizePhone(msg.from);
  if (!phone) return;
  const waId = waIdOf(phone);
  // A message id the webhook delivered before is a duplicate: nothing is done twice (nothing bought twice).
  if (!(await firstDelivery(deps, msg.id, phone))) return;
  try {
    await take(deps, msg, phone, waId);
  } catch (err) {
    // Not taken after all: the webhook answers 500 and the Cloud API's retry finds the id free again.
    await deps.db.execute(sql`DELETE FROM whatsapp_inbound WHERE message_id = ${msg.id}`);
    throw err;
  }
}

async function take(deps: WhatsappDeps, msg: Inbound, phone: string, waId: string): Promise<void> {
  if (!(await channelOpen(deps.db, 'whatsapp')))
    return say(deps, waId, text(`${deps.config.totpIssuer} on WhatsApp is not available now. Please use the app.`));
  const hits = await countMessage(deps, phone);
  if (hits > deps.config.whatsapp.ratePerMinute) {
    // Told once when the limit is passed, then silent until the minute is over.
    if (hits === deps.config.whatsapp.ratePerMinute + 1) await say(deps, waId, text('Too many messages. Try again in a minute.'));
    return;
  }
  const typed = msg.text?.trim() ?? '';
  const code = LINK.exec(typed)?.[1];
  if (code) return link(deps, phone, waId, code);
  const caller = await callerOf(deps, phone, waId);
  if (!caller) return say(deps, waId, text(chatTexts('en').notLinked(deps.config.publicUrl)));
  if (/^unlink$/i.test(typed)) {
    const lang = ussdLanguage((await loadConversation(deps, phone, caller.userId)).lang);
    await unlink(deps, caller.userId);
    await forgetConversation(deps, phone);
    return say(deps, waId, text(chatTexts(lang).unlinked));
  }
  const conv = await loadConversation(deps, phone, caller.userId);
  const moved = await answer(conv, { text: msg.reply ? undefined : typed, reply: msg.reply }, chatContext(deps, caller, conv));
  await saveConversation(deps, phone, moved.conv);
  await say(deps, waId, ...moved.out);
}
