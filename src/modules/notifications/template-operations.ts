import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { templateBodyInput as bodyInput, templateSubjectInput as subjectInput } from './inputs.js';
import { TEMPLATE_LANGUAGES, TEMPLATES } from './template-catalogue.js';
import { listTemplates, previewTemplate, resetTemplate, saveTemplate } from './templates.js';

const defineOperation = operationsOf(['db', 'clock']);

const keyInput = z
  .string({ error: 'key is required' })
  .refine((k) => TEMPLATES.has(k), 'key must be one of the templates adminListMessageTemplates lists');
const languageInput = z.enum(TEMPLATE_LANGUAGES, { error: 'language must be en, ha, pcm or yo' });

const templateOutput = z
  .object({
    key: z.string(),
    channel: z.enum(['email', 'sms', 'notice']),
    label: z.string(),
    language: languageInput,
    subject: z.string().nullable(),
    body: z.string(),
    defaultSubject: z.string().nullable(),
    defaultBody: z.string(),
    variables: z.array(z.string()),
    required: z.array(z.string()),
    overridden: z.boolean(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'MessageTemplate' });

const edited = (t: { subject: string | null; body: string; overridden: boolean }) =>
  t.overridden ? { subject: t.subject, body: t.body } : null;

/** Issue 44: the customer e-mails and SMS reworded per language, with a preview (admins). */
export const templateOperations = [
  defineOperation({
    name: 'adminListMessageTemplates',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'GET',
    purpose:
      'the customer e-mail and SMS templates in one language (codes and notifications): the text sent now, its default, the variables it may use and those it must',
    input: z.object({ language: languageInput.default('en') }),
    output: z.object({ items: z.array(templateOutput) }),
    handler: async (input, ctx) => ({ items: await listTemplates(ctx.api.db, input.language) }),
  }),
  defineOperation({
    name: 'adminPreviewMessageTemplate',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'renders a text with sample values; it changes nothing',
    purpose: 'a template text rendered with sample values, checked as a save would be (400 for an unknown or missing variable)',
    input: z.object({ key: keyInput, language: languageInput, subject: subjectInput, body: bodyInput }),
    output: z.object({ subject: z.string().nullable(), body: z.string(), sms: z.string().nullable() }),
    errors: ['NOT_FOUND'],
    handler: async (input) => previewTemplate(input),
  }),
  defineOperation({
    name: 'adminSaveMessageTemplate',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'rewords a customer message; it moves no money and changes no authority (audited with before and after)',
    purpose:
      'rewords a template in one language (subject and body; an SMS has no subject); its variables are checked: an unknown one or a required one missing is 400',
    input: z.object({ key: keyInput, language: languageInput, subject: subjectInput, body: bodyInput }),
    output: z.object({ template: templateOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      const { before, template } = await saveTemplate(ctx.api.db, ctx.api.clock.now(), ctx.user.id, input);
      ctx.audit.target('message_template', `${template.key}:${template.language}`);
      ctx.audit.change(edited(before), edited(template));
      return { template };
    },
  }),
  defineOperation({
    name: 'adminResetMessageTemplate',
    suffix: 'BearerAdmin',
    roles: [],
    method: 'POST',
    stepUpExempt: 'puts back the default text of a customer message; it moves no money and changes no authority',
    purpose: 'puts back the default text of a template in one language',
    input: z.object({ key: keyInput, language: languageInput }),
    output: z.object({ template: templateOutput }),
    errors: ['NOT_FOUND'],
    handler: async (input, ctx) => {
      const { before, template } = await resetTemplate(ctx.api.db, input);
      ctx.audit.target('message_template', `${template.key}:${template.language}`);
      ctx.audit.change(edited(before), null);
      return { template };
    },
  }),
];
