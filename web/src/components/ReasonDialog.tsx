import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Failure } from './Failure';
import type { UseFormReturnType } from '@mantine/form';
import { showServerIssues, useSchemaForm, type FieldHints } from './form';

/** The reasons given for an action (3 to 500 characters, as the service's review and resolution operations accept). */
const reasonRule = (min: number) => z.string().trim().min(min).max(500);
const reasonSchema = (min: number, optional: boolean) =>
  z.object({
    reason: optional
      ? z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), reasonRule(min).optional())
      : reasonRule(min),
  });

/** Fields an action takes besides its reason (a correction's amount), on the dialog's form: their rules and inputs. */
export interface DialogFields<F extends Record<string, unknown>> {
  schema: z.ZodObject;
  initial: F;
  /** The rules' sentences (components/form.ts). */
  hints?: FieldHints;
  /** The fields' inputs, given each field's props from the form (value, onChange, error, onBlur). */
  render: (input: (field: keyof F & string) => ReturnType<UseFormReturnType<F>['getInputProps']>) => ReactNode;
}

/**
 * A dialog that asks for a reason (required unless `optional`), and any `fields` the action takes, and runs the action
 * with them; the service's refusal shows in the dialog, under the field when it names it.
 */
export function ReasonDialog<F extends Record<string, unknown> = Record<string, never>>(p: {
  opened: boolean;
  title: string;
  label?: string;
  confirm: string;
  color?: string;
  optional?: boolean;
  /** The fewest characters the operation accepts (3 unless it says otherwise). */
  min?: number;
  children?: ReactNode;
  fields?: DialogFields<F>;
  onClose: () => void;
  onConfirm: (reason: string | undefined, values: F) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(
    reasonSchema(p.min ?? 3, p.optional ?? false).extend(p.fields?.schema.shape ?? {}),
    { ...(p.fields?.initial as F), reason: '' },
    p.fields?.hints,
  );
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const close = () => {
    form.reset();
    setError(null);
    p.onClose();
  };
  return (
    <Modal opened={p.opened} onClose={close} title={p.title} closeButtonProps={{ 'aria-label': t('app.close') }}>
      <form
        noValidate
        id={id}
        onSubmit={form.onSubmit(async ({ reason, ...values }) => {
          setBusy(true);
          setError(null);
          try {
            await p.onConfirm(reason.trim() === '' ? undefined : reason.trim(), values as unknown as F);
            close();
          } catch (err) {
            if (!showServerIssues(form, err, p.fields?.hints)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          {p.children}
          {p.fields?.render((field) => form.getInputProps(field))}
          <Textarea
            label={p.label ?? (p.optional ? t('kit.note') : t('kit.reason'))}
            required={!p.optional}
            autosize
            minRows={2}
            data-autofocus
            {...form.getInputProps('reason')}
          />
          <Failure error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" color={p.color} loading={busy}>
              {p.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
