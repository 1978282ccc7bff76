import { CODE_TEXTS, type CodeTexts } from '../../kernel/code-texts.js';
import { NOTICE_CASES, type NoticeCase, type NoticeLanguage } from '../../kernel/notices.js';
import { NOTICE_TEXTS } from './wording/index.js';

/**
 * The customer e-mails and SMS an admin may reword per language (issue 44): the codes the service writes itself
 * (kernel/code-texts.ts) and every notification's wording case (kernel/notices.ts, sent by push, e-mail and SMS).
 * Each has a default in en, ha, pcm and yo, the variables it may use and those it must use.
 */
export const TEMPLATE_LANGUAGES = ['en', 'ha', 'pcm', 'yo'] as const satisfies readonly NoticeLanguage[];

/**
 * The code texts that can be reworded: the sign-in and security codes by e-mail, the phone codes by SMS, and the
 * e-mail of a webhook endpoint disabled after failing every attempt.
 */
export const CODE_TEMPLATES = {
  signInCode: { channel: 'email', label: 'Sign-in code (e-mail)', variables: ['code'] },
  stepUpCode: { channel: 'email', label: 'Security confirmation code (e-mail)', variables: ['code'] },
  phoneCode: { channel: 'sms', label: 'Phone verification code (SMS)', variables: ['code'] },
  sendingNumberCode: { channel: 'sms', label: 'Airtime-to-cash number code (SMS)', variables: ['code', 'phone'] },
  // To a reseller whose webhook endpoint failed every attempt (issue 45); {{mode}} is the endpoint's mode in the
  // customer's language (the code texts' webhookModes: live or test).
  webhookDisabled: { channel: 'email', label: 'Webhook endpoint disabled (e-mail)', variables: ['url', 'reason', 'mode'] },
} as const satisfies Partial<Record<keyof CodeTexts, { channel: 'email' | 'sms'; label: string; variables: readonly string[] }>>;
export type CodeTemplate = keyof typeof CODE_TEMPLATES;

export interface TemplateDef {
  key: string;
  /** email: a subject and a body; sms: a body; notice: a title (the e-mail's subject, the push's title) and a body. */
  channel: 'email' | 'sms' | 'notice';
  label: string;
  variables: readonly string[];
  /** The variables the body must keep (every default language's body uses them). */
  required: readonly string[];
  defaults: Record<NoticeLanguage, { subject: string | null; body: string }>;
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;
export const placeholdersOf = (text: string) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);

function defOf(
  key: string,
  channel: TemplateDef['channel'],
  label: string,
  declared: readonly string[],
  defaults: TemplateDef['defaults'],
) {
  const texts = Object.values(defaults);
  const used = texts.flatMap((d) => [...placeholdersOf(d.body), ...placeholdersOf(d.subject ?? '')]);
  const required = [...new Set(placeholdersOf(defaults.en.body))].filter((v) => texts.every((d) => placeholdersOf(d.body).includes(v)));
  return { key, channel, label, variables: [...new Set([...declared, ...used])], required, defaults };
}

const perLanguage = (f: (lang: NoticeLanguage) => { subject: string | null; body: string }) =>
  Object.fromEntries(TEMPLATE_LANGUAGES.map((l) => [l, f(l)])) as TemplateDef['defaults'];

function codeDef(name: CodeTemplate): TemplateDef {
  const c = CODE_TEMPLATES[name];
  return defOf(
    `code.${name}`,
    c.channel,
    c.label,
    c.variables,
    perLanguage((l) => {
      const t = CODE_TEXTS[l][name];
      return typeof t === 'string' ? { subject: null, body: t } : { subject: t.subject, body: t.text };
    }),
  );
}

function noticeDef(c: NoticeCase): TemplateDef {
  const label = `Notification: ${c.replace(/_/g, ' ')}`;
  return defOf(
    `notice.${c}`,
    'notice',
    label,
    NOTICE_CASES[c],
    perLanguage((l) => ({ subject: NOTICE_TEXTS[l].notice[c].title, body: NOTICE_TEXTS[l].notice[c].body })),
  );
}

/** Every template that can be reworded, by key. */
export const TEMPLATES: ReadonlyMap<string, TemplateDef> = new Map(
  [...(Object.keys(CODE_TEMPLATES) as CodeTemplate[]).map(codeDef), ...(Object.keys(NOTICE_CASES) as NoticeCase[]).map(noticeDef)].map(
    (d) => [d.key, d],
  ),
);

/** Sample values a preview fills the variables with. */
export const SAMPLE_VALUES: Record<string, string | number> = {
  code: '482913',
  phone: '08031234567',
  amount: '₦1,500.00',
  total: '₦10,250.00',
  interest: '₦250.00',
  outstanding: '₦5,000.00',
  lateFee: '₦200.00',
  received: '₦1,000.00',
  expected: '₦1,000.00',
  fee: '₦500.00',
  service: 'Airtime',
  recipient: '08031234567',
  token: '1234-5678-9012-3456-7890',
  to: 'ada_b',
  from: 'tunde',
  note: 'for lunch',
  tier: 2,
  reason: 'the picture is blurred',
  when: '2 Mar 2026, 09:15',
  browser: 'Chrome',
  os: 'Android',
  failures: 5,
  change: 'the login PIN was changed',
  resetAt: '3 Mar 2026, 09:15',
  removalAt: '3 Mar 2026, 09:15',
  text: 'Thanks for waiting: your data was delivered.',
  dueDate: '10 Mar 2026',
  threshold: 5,
  reference: 'ord_01J0EXAMPLE',
  route: 'LOS-ABV',
  name: 'Ada Obi',
  bank: 'GTBank',
  url: 'https://example.com/webhooks',
  mode: 'test',
};
