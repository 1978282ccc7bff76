import { sql } from 'drizzle-orm';
import { one, rows, type Executor } from '../../db/client.js';
import { CODE_TEXTS, type CodeTexts } from '../../kernel/code-texts.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { fill, type NoticeLanguage } from '../../kernel/notices.js';
import { codeWording } from './delivery.js';
import { CODE_TEMPLATES, placeholdersOf, SAMPLE_VALUES, TEMPLATES, type CodeTemplate, type TemplateDef } from './template-catalogue.js';

/**
 * Admins' wording of the customer e-mails and SMS (issue 44): an override of a template's subject and body per
 * language in message_templates (migration 1276); without one the default (the kernel's texts) is sent. The variables
 * are checked when saved: an unknown one, or a required one missing from the body, is refused with what it may use.
 */
export interface TemplateView {
  key: string;
  channel: TemplateDef['channel'];
  label: string;
  language: NoticeLanguage;
  subject: string | null;
  body: string;
  defaultSubject: string | null;
  defaultBody: string;
  variables: string[];
  required: string[];
  overridden: boolean;
  updatedAt: string | null;
}

type Row = { key: string; language: NoticeLanguage; subject: string | null; body: string; updated_at: string };

function view(def: TemplateDef, language: NoticeLanguage, row: Row | undefined): TemplateView {
  const d = def.defaults[language];
  return {
    key: def.key,
    channel: def.channel,
    label: def.label,
    language,
    subject: def.channel === 'sms' ? null : (row?.subject ?? d.subject),
    body: row?.body ?? d.body,
    defaultSubject: d.subject,
    defaultBody: d.body,
    variables: [...def.variables],
    required: [...def.required],
    overridden: Boolean(row),
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

const defOf = (key: string) => {
  const def = TEMPLATES.get(key);
  if (!def) throw notFound('Template');
  return def;
};

/** Every template in `language`, as sent now (its override, else the default). */
export async function listTemplates(db: Executor, language: NoticeLanguage): Promise<TemplateView[]> {
  const saved = await rows<Row>(
    db,
    sql`SELECT key, language, subject, body, updated_at FROM message_templates WHERE language = ${language}`,
  );
  return [...TEMPLATES.values()].map((def) =>
    view(
      def,
      language,
      saved.find((r) => r.key === def.key),
    ),
  );
}

const list = (names: readonly string[]) => names.map((v) => `{{${v}}}`).join(', ') || 'none';

/** Refuses a text whose variables the template does not know, or a body without a required one (400, said plainly). */
export function checkTemplate(def: TemplateDef, text: { subject?: string | null; body: string }) {
  for (const [field, value] of [
    ['subject', text.subject ?? ''],
    ['body', text.body],
  ] as const) {
    const braces = value.match(/\{\{[^}]*\}\}?/g) ?? [];
    const bad = braces.find((b) => !/^\{\{\w+\}\}$/.test(b));
    if (bad) throw new AppError('VALIDATION_FAILED', `The ${field} has ${bad}: write a variable as {{name}} (${list(def.variables)})`);
    const unknown = placeholdersOf(value).find((v) => !def.variables.includes(v));
    if (unknown)
      throw new AppError(
        'VALIDATION_FAILED',
        `The ${field} uses {{${unknown}}}, which this template does not have: it can use ${list(def.variables)}`,
      );
  }
  const missing = def.required.filter((v) => !placeholdersOf(text.body).includes(v));
  if (missing.length) throw new AppError('VALIDATION_FAILED', `The body must contain ${list(missing)}: the message is useless without it`);
  if (def.channel !== 'sms' && !(text.subject ?? '').trim()) throw new AppError('VALIDATION_FAILED', 'The subject must not be empty');
}

/** Saves an override (checked); answers it and what was sent before. */
export async function saveTemplate(
  db: Executor,
  now: Date,
  actorId: string,
  input: { key: string; language: NoticeLanguage; subject?: string | null; body: string },
) {
  const def = defOf(input.key);
  const subject = def.channel === 'sms' ? null : (input.subject ?? null);
  checkTemplate(def, { subject, body: input.body });
  const before = await one<Row>(
    db,
    sql`SELECT key, language, subject, body, updated_at FROM message_templates WHERE key = ${def.key} AND language = ${input.language}`,
  );
  const saved = await one<Row>(
    db,
    sql`INSERT INTO message_templates (key, language, subject, body, updated_by, updated_at)
        VALUES (${def.key}, ${input.language}, ${subject}, ${input.body}, ${actorId}, ${now})
        ON CONFLICT (key, language) DO UPDATE SET subject = EXCLUDED.subject, body = EXCLUDED.body,
          updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at
        RETURNING key, language, subject, body, updated_at`,
  );
  return { before: view(def, input.language, before), template: view(def, input.language, saved!) };
}

/** Drops the override: the default is sent again. */
export async function resetTemplate(db: Executor, input: { key: string; language: NoticeLanguage }) {
  const def = defOf(input.key);
  const before = await one<Row>(
    db,
    sql`DELETE FROM message_templates WHERE key = ${def.key} AND language = ${input.language}
        RETURNING key, language, subject, body, updated_at`,
  );
  return { before: view(def, input.language, before), template: view(def, input.language, undefined) };
}

/** The text as a customer would get it, its variables filled with sample values (checked as a save would be). */
export function previewTemplate(input: { key: string; language: NoticeLanguage; subject?: string | null; body: string }) {
  const def = defOf(input.key);
  const subject = def.channel === 'sms' ? null : (input.subject ?? null);
  checkTemplate(def, { subject, body: input.body });
  const values = Object.fromEntries(def.variables.map((v) => [v, SAMPLE_VALUES[v] ?? `[${v}]`]));
  const s = subject === null ? null : fill(subject, values);
  const body = fill(input.body, values);
  // A notice's SMS is its title and body (delivery.ts); a code's SMS its body.
  const sms = def.channel === 'email' ? null : (def.channel === 'notice' ? `${s}: ${body}` : body).slice(0, 320);
  return { subject: s, body, sms };
}

/**
 * The code texts for an account (by user id, e-mail or verified phone) in its saved language, with the admins'
 * overrides of that language (English for an address with no account, or a language without texts): one statement.
 */
export async function codeTextsFor(exec: Executor, who: { userId: string } | { email: string } | { phone: string }): Promise<CodeTexts> {
  const r = await codeWording(exec, who);
  const language = (r?.language && r.language in CODE_TEXTS ? r.language : 'en') as NoticeLanguage;
  const texts: CodeTexts = { ...CODE_TEXTS[language] };
  for (const o of r?.overrides ?? []) {
    const name = o.key.slice('code.'.length) as CodeTemplate;
    if (o.language !== language || !(name in CODE_TEMPLATES)) continue;
    const base = texts[name];
    // Each field as CodeTexts types it: an e-mail's subject and text, an SMS's text.
    (texts as unknown as Record<string, unknown>)[name] =
      typeof base === 'string' ? o.body : { subject: o.subject ?? base.subject, text: o.body };
  }
  return texts;
}
