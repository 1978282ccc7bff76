import { Button, Group, NativeSelect, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { newIdempotencyKey } from '../../api/client';

import { AmountInput } from '../../components/AmountInput';

import { formatDateTime, formatNaira } from '../../app/format';

import { detectNetwork } from '../../app/network';
import { scheduleSchema } from '../../api/schemas';
import { amountProps, showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';

import { PinPad } from '../../components/PinPad';

import { Failure } from '../../components/Failure';
import { Section } from '../../components/Section';
import { ordersQueries } from '../../api/queries/orders';
import * as api from '../../api/calls';

const HINTS: FieldHints = { phone: 'buy.phoneInvalid', time: 'fields.time' };

/** Scheduled airtime: the saved schedules (pause, delete) and a new one confirmed with the PIN. */
export function Schedules() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery(ordersQueries.schedules());
  // upsertSchedule's own rules (api/schemas.ts): the number, the amount, the time; the PIN pad confirms.
  const form = useSchemaForm(scheduleSchema, { phone: '', amount: '' as number | '', time: '09:00' }, HINTS);
  const [frequency, setFrequency] = useState<'daily' | 'weekly' | 'monthly'>('monthly');
  const [pin, setPin] = useState('');
  const [underFields, setUnderFields] = useState(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: ordersQueries.schedules().queryKey });
  const { phone, amount } = form.getValues();
  const save = useMutation({
    mutationFn: (v: { network: string; phone: string; amount: number; time: string; pin: string }) =>
      api.upsertSchedule(
        {
          service: 'airtime',
          ...v,
          frequency,
          ...(frequency === 'weekly' ? { dayOfWeek: 1 } : frequency === 'monthly' ? { dayOfMonth: 1 } : {}),
        },
        { idempotencyKey: newIdempotencyKey() },
      ),
    onSuccess: () => (refresh(), form.reset()),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
    onSettled: () => setPin(''),
  });
  function confirm(p: string) {
    const checked = scheduleSchema.safeParse(form.getValues());
    if (form.validate().hasErrors || !checked.success) return setPin('');
    // The network follows the number's prefix: a number no network claims is named under the field.
    const network = detectNetwork(checked.data.phone);
    if (!network) return (form.setFieldError('phone', t('buy.notDetected')), setPin(''));
    save.mutate({ ...checked.data, network, pin: p });
  }
  const toggle = useMutation({
    mutationFn: (v: { id: string; active: boolean }) => api.toggleSchedule(v),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: string) => api.deleteSchedule({ id }), onSuccess: refresh });
  return (
    <Section id="schedules" title={t('orders.schedules')}>
      <Failure error={list.error ?? (underFields ? null : save.error) ?? toggle.error ?? remove.error} />
      {(list.data?.items ?? []).map((s) => (
        <Group key={s.id} justify="space-between" wrap="nowrap">
          <Text size="sm">
            {t('orders.scheduleLine', {
              amount: formatNaira(s.amount),
              phone: s.phone,
              frequency: t(`orders.${s.frequency}`),
              time: s.time,
            })}
            {s.nextRunAt ? ` · ${t('orders.next', { date: formatDateTime(s.nextRunAt) })}` : ''}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Switch
              aria-label={t('orders.scheduleActive', { phone: s.phone })}
              checked={s.active}
              onChange={(e) => toggle.mutate({ id: s.id, active: e.currentTarget.checked })}
            />
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => remove.mutate(s.id)}
              aria-label={t('orders.deleteSchedule', { phone: s.phone })}
            >
              {t('orders.delete')}
            </Button>
          </Group>
        </Group>
      ))}
      <TextInput label={t('buy.phone')} type="tel" {...form.getInputProps('phone')} required />
      <AmountInput label={t('buy.amount')} min={50} {...amountProps(form, 'amount')} />
      <Group grow>
        <NativeSelect
          label={t('orders.frequency')}
          value={frequency}
          onChange={(e) => setFrequency(e.currentTarget.value as typeof frequency)}
          data={(['daily', 'weekly', 'monthly'] as const).map((f) => ({ value: f, label: t(`orders.${f}`) }))}
        />
        <TextInput label={t('orders.time')} type="time" {...form.getInputProps('time')} required />
      </Group>
      {phone !== '' && typeof amount === 'number' && <PinPad value={pin} onChange={setPin} onConfirm={confirm} busy={save.isPending} />}
    </Section>
  );
}
