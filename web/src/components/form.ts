import { useForm, type UseFormReturnType } from '@mantine/form';
import i18next from 'i18next';
import type { z } from 'zod';
import { ApiError } from '../api/client';
import { formatNaira } from '../app/format';

/**
 * Forms through one library (@mantine/form) with the service's own zod schemas (api/schemas.ts): a rule is written
 * once. Messages are the app's, in the person's language, from the rule's kind and bounds (never the service's
 * English wording). Only the screens with forms load this module, @mantine/form and zod.
 */
type Values = Record<string, unknown>;

/** One failed rule in words: amounts in naira, lengths in characters, the rest "required" or "not valid". */
export function issueMessage(issue: z.core.$ZodIssue): string {
  const money = issue.path.at(-1) === 'amount';
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return i18next.t('form.tooShort', { count: Number(issue.minimum) });
      return i18next.t('form.atLeast', { minimum: money ? formatNaira(Number(issue.minimum)) : String(issue.minimum) });
    case 'too_big':
      if (issue.origin === 'string') return i18next.t('form.tooLong', { count: Number(issue.maximum) });
      return i18next.t('form.atMost', { maximum: money ? formatNaira(Number(issue.maximum)) : String(issue.maximum) });
    case 'invalid_type':
      return i18next.t(issue.input === undefined || issue.input === '' ? 'form.required' : 'form.invalid');
    default:
      return i18next.t('form.invalid');
  }
}

/** A form's values checked by a schema: field path -> message, the first failed rule of each field. */
export function schemaErrors(schema: z.ZodType, values: unknown): Record<string, string> {
  const r = schema.safeParse(values);
  if (r.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) errors[issue.path.join('.')] ??= issueMessage(issue);
  return errors;
}

/** @mantine/form validated by a schema (on submit, and each field again once it has been left). */
export function useSchemaForm<V extends Values>(schema: z.ZodType, initialValues: V): UseFormReturnType<V> {
  return useForm<V>({ mode: 'controlled', initialValues, validate: (v) => schemaErrors(schema, v), validateInputOnBlur: true });
}

/**
 * The service's 400 answer puts its issues under their fields: each field it names gets the form's own message for
 * it (or "not valid" when the form's rules pass but the service's did not). Returns whether any field was named, so
 * the caller shows a general message only for the rest.
 */
export function showServerIssues<V extends Values>(form: UseFormReturnType<V>, err: unknown): boolean {
  if (!(err instanceof ApiError) || err.issues.length === 0) return false;
  const fields = Object.keys(form.getValues());
  const own = form.validate().errors;
  let placed = false;
  for (const issue of err.issues) {
    const field = issue.path.split('.')[0]!;
    if (!fields.includes(field)) continue;
    form.setFieldError(field, (own[field] as string | undefined) ?? i18next.t('form.invalid'));
    placed = true;
  }
  return placed;
}
