import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Failure } from './Failure';
import { showServerIssues, useSchemaForm } from './form';

/** The reasons given for an action (3 to 500 characters, as the service's review and resolution operations accept). */
const reasonRule = (min: number) => z.string().trim().min(min).max(500);
const reasonSchema = (min: number, optional: boolean) =>
  z.object({
    reason: optional
      ? z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), reasonRule(min).optional())
      : reasonRule(min),
  });

/**
 * A dialog that asks for a reason (required unless `optional`) and runs the action with it; the service's refusal
 * shows in the dialog, under the field when it names it.
 */
export function ReasonDialog(p: {
  opened: boolean;
  title: string;
  label?: string;
  confirm: string;
  color?: string;
  optional?: boolean;
  /** The fewest characters the operation accepts (3 unless it says otherwise). */
  min?: number;
  children?: ReactNode;
  onClose: () => void;
  onConfirm: (reason: string | undefined) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const form = useSchemaForm(reasonSchema(p.min ?? 3, p.optional ?? false), { reason: '' });
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
        id={id}
        onSubmit={form.onSubmit(async ({ reason }) => {
          setBusy(true);
          setError(null);
          try {
            await p.onConfirm(reason.trim() === '' ? undefined : reason.trim());
            close();
          } catch (err) {
            if (!showServerIssues(form, err)) setError(err);
          } finally {
            setBusy(false);
          }
        })}
      >
        <Stack>
          {p.children}
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
