import { useForm, type UseFormReturnType } from '@mantine/form';
import i18next, { type ParseKeys } from 'i18next';
import type { z } from 'zod';
import { ApiError } from '../api/client';
import { formatNaira } from '../app/format';

/**
 * Forms through one library (@mantine/form) with the service's own zod schemas (api/schemas.ts): a rule is written
 * once. Messages are the app's, in the person's language, from the rule's kind and bounds (never the service's
 * English wording). Only the screens with forms load this module, @mantine/form and zod.
 */
type Values = Record<string, unknown>;
/**
 * A field's own sentence for a value its rule refuses (a pattern or a check the kind-and-bounds words cannot say, e.g.
 * "Enter an 11-digit Nigerian mobile number"), by field path; said for an empty field too, so it reads as an instruction.
 */
export type FieldHints = Partial<Record<string, ParseKeys | ((issue: z.core.$ZodIssue) => string | undefined)>>;
/** A hint's sentence for an issue (a function hint may keep the generic words by answering undefined). */
const hintFor = (hint: FieldHints[string], issue?: z.core.$ZodIssue) =>
  typeof hint === 'function' ? (issue ? hint(issue) : undefined) : hint ? i18next.t(hint) : undefined;

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

const valueAt = (values: unknown, path: PropertyKey[]) =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), values);
const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A form's values checked by a schema: field path -> message, the first failed rule of each field. */
export function schemaErrors(schema: z.ZodType, values: unknown, hints: FieldHints = {}): Record<string, string> {
  const r = schema.safeParse(values);
  if (r.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const path = issue.path.join('.');
    const empty = isEmpty(valueAt(values, issue.path));
    errors[path] ??=
      hintFor(hints[path], issue) ?? (empty && issue.code !== 'invalid_type' ? i18next.t('form.required') : issueMessage(issue));
  }
  return errors;
}

/**
 * A press in progress (a finger or a mouse button down): a field left because of it is checked once the press has
 * ended. Its sentence appears under the field and moves what is below it; checked at once, it moved the button or link
 * being pressed from under the press, and the click missed it.
 */
let pressing = false;
let afterPress: (() => void)[] = [];
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => void (pressing = true), true);
  // A touch's click (and the focus change it makes) comes after pointerup: the press ends a task later.
  const released = () =>
    setTimeout(() => {
      pressing = false;
      const run = afterPress;
      afterPress = [];
      run.forEach((f) => f());
    }, 0);
  document.addEventListener('pointerup', released, true);
  document.addEventListener('pointercancel', released, true);
}
const whenReleased = (f: () => void) => (pressing ? afterPress.push(f) : f());

/**
 * @mantine/form validated by a schema: on submit, and a field that holds something again once it has been left (an
 * empty field is named on submit only: leaving it is not a mistake). The submit button stays enabled; a submit says
 * under each field what is wrong. `hints` words the rules of particular fields.
 */
export function useSchemaForm<V extends Values>(schema: z.ZodType, initialValues: V, hints?: FieldHints): UseFormReturnType<V> {
  return useForm<V>({
    mode: 'controlled',
    initialValues,
    validate: (v) => schemaErrors(schema, v, hints),
    enhanceGetInputProps: ({ inputProps, field, form }) =>
      inputProps.onBlur
        ? { onBlur: () => whenReleased(() => void (isEmpty(valueAt(form.getValues(), field.split('.'))) || form.validateField(field))) }
        : {},
  });
}

/**
 * The service's 400 answer puts its issues under their fields: each field it names gets the form's own message for
 * it (or "not valid" when the form's rules pass but the service's did not). Returns whether any field was named, so
 * the caller shows a general message only for the rest.
 */
export function showServerIssues<V extends Values>(form: UseFormReturnType<V>, err: unknown, hints?: FieldHints): boolean {
  if (!(err instanceof ApiError) || err.issues.length === 0) return false;
  const values = form.getValues();
  const own = form.validate().errors;
  let placed = false;
  for (const issue of err.issues) {
    // The service's path names a field of the form (or, for a nested field, its parent holds it).
    const path = issue.path.split('.');
    const parent = valueAt(values, path.slice(0, -1));
    if (parent === null || typeof parent !== 'object' || !(path.at(-1)! in parent)) continue;
    const field = issue.path;
    form.setFieldError(field, (own[field] as string | undefined) ?? hintFor(hints?.[field]) ?? i18next.t('form.invalid'));
    placed = true;
  }
  return placed;
}

/** An AmountInput bound to a form's field (its value, the change, its message, the check on leaving it). */
export function amountProps<V extends Values>(form: UseFormReturnType<V>, path: string) {
  const input = form.getInputProps(path);
  return {
    value: input.value as number | '',
    onChange: (v: number | '') => form.setFieldValue(path as never, v as never),
    error: input.error as string | undefined,
    onBlur: input.onBlur as () => void,
  };
}

/**
 * A text input bound to a form's field that keeps only the digits typed (numbers, PINs, codes). It says aria-invalid
 * itself: Mantine's PasswordInput marks an error only with data-invalid.
 */
export function digitsProps<V extends Values>(form: UseFormReturnType<V>, path: string) {
  const input = form.getInputProps(path);
  return {
    ...input,
    'aria-invalid': input.error ? true : undefined,
    onChange: (e: { currentTarget: { value: string } }) =>
      form.setFieldValue(path as never, e.currentTarget.value.replace(/\D/g, '') as never),
  };
}

/**
 * A 400 answer's issues on the named fields, each in the field's own sentence (or "not valid"): for a form that keeps
 * its values itself (sign-in, whose first screen loads no form library). Empty when the answer names none of them.
 */
export function serverFieldErrors(err: unknown, fields: string[], hints: FieldHints = {}): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const errors: Record<string, string> = {};
  for (const issue of err.issues) {
    if (!fields.includes(issue.path)) continue;
    errors[issue.path] = hintFor(hints[issue.path]) ?? i18next.t('form.invalid');
  }
  return errors;
}
