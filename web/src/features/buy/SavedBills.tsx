import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { beneficiaryQueries } from '../../api/queries/beneficiaries';
import { errorMessage } from '../../app/errors';
import type { PurchaseRecord } from '../../components/receipt-details';
import * as api from '../../api/calls';
import { beneficiaryLabelSchema } from '../../api/buy-schemas';
import { useSchemaForm, type FieldHints } from '../../components/form';

/** The saved recipients of the bill forms: a meter (electricity), a smartcard (cable TV), a betting account. */
export type BillKind = 'meter' | 'smartcard' | 'betting';

export interface SavedBill {
  recipient: string;
  provider: string | null;
  meterType: 'prepaid' | 'postpaid' | null;
}

const BILL_KIND: Partial<Record<string, BillKind>> = { electricity: 'meter', cable: 'smartcard', betting: 'betting' };

/** The saved meters, smartcards or betting accounts, one tap each to fill the form (provider, number, meter type). */
export function SavedBills({ kind, onPick, disabled }: { kind: BillKind; onPick(b: SavedBill): void; disabled?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const saved = useQuery(beneficiaryQueries.list(kind));
  const items = saved.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {t(`saved.list_${kind}`)}
      </Text>
      <Group gap="xs" role="group" aria-labelledby={id}>
        {items.map((b) => (
          <Button
            key={b.id ?? b.recipient}
            size="compact-sm"
            variant="default"
            disabled={disabled}
            onClick={() => onPick({ recipient: b.recipient, provider: b.provider, meterType: b.meterType })}
            aria-label={`${b.label}: ${b.recipient}`}
          >
            {b.label}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** What a delivered bill purchase would be saved as, or null for a purchase that is not a bill's. */
function billOf(tx: PurchaseRecord): ({ kind: BillKind } & SavedBill) | null {
  const kind = BILL_KIND[tx.service];
  const input = (tx as { repeat?: { input?: Record<string, unknown> } }).repeat?.input ?? {};
  const provider = String(
    (kind === 'meter' ? input.plan : kind === 'smartcard' ? input.identifier : input.betting_company) ?? tx.product ?? '',
  );
  if (!kind || !provider) return null;
  const meterType = kind === 'meter' ? (tx.meterType === 'postpaid' ? 'postpaid' : 'prepaid') : null;
  return { kind, recipient: tx.recipient, provider, meterType };
}

/** An empty name is asked for in the form's own words; the other rules keep the generic ones. */
const LABEL_HINTS: FieldHints = { label: (issue) => (issue.code === 'too_small' ? i18next.t('saved.nameRequired') : undefined) };

/**
 * "Save this meter / smartcard / account" after a delivered bill purchase, under a name the customer gives; one
 * already saved says the name it has. Saving the same one again renames it (saveBeneficiary).
 */
export function SaveBill({ tx }: { tx: PurchaseRecord }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const bill = billOf(tx);
  const saved = useQuery({ ...beneficiaryQueries.list(bill?.kind ?? 'meter'), enabled: bill !== null });
  const form = useSchemaForm(beneficiaryLabelSchema, { label: '' }, LABEL_HINTS);
  const save = useMutation({
    mutationFn: (name: string) =>
      api.saveBeneficiary({
        kind: bill!.kind,
        label: name,
        recipient: bill!.recipient,
        provider: bill!.provider!,
        ...(bill!.meterType ? { meterType: bill!.meterType } : {}),
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: beneficiaryQueries.all() }),
  });
  if (!bill || !saved.data) return null;
  const existing = saved.data.items.find((b) => b.recipient === bill.recipient && b.provider === bill.provider);
  if (existing) return <Text size="sm">{t('saved.savedAs', { label: existing.label })}</Text>;
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v.label.trim()))}>
      <Stack gap="xs">
        <TextInput
          label={t(`saved.save_${bill.kind}`)}
          description={t('saved.nameHelp')}
          maxLength={40}
          {...form.getInputProps('label')}
          error={form.errors.label ?? (save.error ? errorMessage(save.error) : undefined)}
        />
        <Button type="submit" variant="light" loading={save.isPending}>
          {t('saved.save')}
        </Button>
      </Stack>
    </form>
  );
}
