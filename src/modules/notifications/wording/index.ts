import { fill, MONEY_PARAMS, noticeCase, type NoticeLanguage, type NoticeParams, type ServiceNameOf } from '../../../kernel/notices.js';
import { formatNaira, toKobo } from '../../../kernel/money.js';
import { en } from '../../../kernel/notice-texts/en.js';
import { ha } from '../../../kernel/notice-texts/ha.js';
import { pcm } from '../../../kernel/notice-texts/pcm.js';
import type { NoticeTexts } from '../../../kernel/notice-texts/types.js';
import { yo } from '../../../kernel/notice-texts/yo.js';

/** The languages notifications are written in on the service's channels; any other preference (ig) reads English. */
export const NOTICE_TEXTS: Record<NoticeLanguage, NoticeTexts> = { en, ha, pcm, yo };

/** What follows every notification e-mail, per language. */
export const EMAIL_FOOTER: Record<keyof typeof NOTICE_TEXTS, string> = {
  en: 'You can see all your notifications in the app. To stop these e-mails, turn off e-mail notifications in Settings.',
  ha: 'Kuna iya ganin duk sanarwarku a cikin manhajar. Don dakatar da waɗannan imel-imel, kashe sanarwar imel a Saituna.',
  pcm: 'You fit see all your notifications for the app. To stop these e-mails, off e-mail notifications for Settings.',
  yo: 'O lè rí gbogbo ìfitónilétí rẹ nínú áàpù. Láti dá àwọn ímeèlì wọ̀nyí dúró, pa ìfitónilétí ímeèlì nínú Ètò.',
};

export const textsOf = (language: string | undefined): NoticeTexts =>
  NOTICE_TEXTS[(language ?? 'en') as keyof typeof NOTICE_TEXTS] ?? NOTICE_TEXTS.en;

export const emailFooter = (language: string | undefined) =>
  EMAIL_FOOTER[(language ?? 'en') as keyof typeof EMAIL_FOOTER] ?? EMAIL_FOOTER.en;

const languageOf = (language: string | undefined): NoticeLanguage =>
  language && language in NOTICE_TEXTS ? (language as NoticeLanguage) : 'en';

/**
 * A notification's title and body in `language`, from its kind and params (issue 29); the stored English title and
 * body when the kind has no wording case or a parameter the case needs is missing. A purchase's service is named by
 * `serviceName` (the kinds' own names, from the VTU module: services.ts wires it in); a service it does not know
 * keeps the English text.
 */
export function wordNotice(
  language: string | undefined,
  n: { kind: string; title: string; body: string; params: NoticeParams },
  serviceName: ServiceNameOf,
  /** The admins' wording of this language's cases, by `notice.<case>` (templates.ts, issue 44). */
  overrides?: Readonly<Record<string, { subject: string | null; body: string }>>,
): { title: string; body: string } {
  const lang = languageOf(language);
  const c = noticeCase(n.kind, { ...n.params, text: n.body }, (s) => typeof s === 'string' && serviceName(s, lang) !== undefined);
  if (!c) return { title: n.title, body: n.body };
  const texts = NOTICE_TEXTS[lang];
  const values: Record<string, string | number> = { ...n.params, text: n.body };
  for (const [k, v] of Object.entries(n.params)) {
    if (MONEY_PARAMS.has(k) && typeof v === 'number') values[k] = formatNaira(toKobo(Math.abs(v)));
  }
  const service = typeof n.params.service === 'string' ? serviceName(n.params.service, lang) : undefined;
  if (service !== undefined) values.service = service;
  if (typeof n.params.change === 'string' && n.params.change in texts.noticeChange)
    values.change = texts.noticeChange[n.params.change as keyof NoticeTexts['noticeChange']];
  const o = overrides?.[`notice.${c}`];
  const w = o ? { title: o.subject ?? texts.notice[c].title, body: o.body } : texts.notice[c];
  return { title: fill(w.title, values), body: fill(w.body, values) };
}
