import { Button, Group, NativeSelect, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { newIdempotencyKey, post } from '../../api/client';

import { AmountInput } from '../../components/AmountInput';

import { formatDateTime, formatNaira } from '../../app/format';

import { detectNetwork, normalizePhone } from '../../app/network';

import { PinPad } from '../../components/PinPad';

import { Failure } from '../../components/Failure';
import { Section } from '../../components/Section';
import { ordersQueries } from '../../api/queries/orders';

/** Orders and help: marketplace and subscription orders, scheduled purchases, support chat, reporting an issue. */
export function Schedules() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery(ordersQueries.schedules());
  const [phone, setPhone] = useState('');
  const [amount, setAmount] = useState<number | ''>('');
  const [frequency, setFrequency] = useState<'daily' | 'weekly' | 'monthly'>('monthly');
  const [time, setTime] = useState('09:00');
  const [pin, setPin] = useState('');
  const refresh = () => void qc.invalidateQueries({ queryKey: ordersQueries.schedules().queryKey });
  const network = detectNetwork(phone);
  const save = useMutation({
    mutationFn: (p: string) =>
      post(
        '/_serverFn/upsertScheduleBearerSchedules',
        {
          service: 'airtime',
          network: network!,
          phone: normalizePhone(phone)!,
          amount: amount as number,
          frequency,
          time,
          ...(frequency === 'weekly' ? { dayOfWeek: 1 } : frequency === 'monthly' ? { dayOfMonth: 1 } : {}),
          pin: p,
        },
        { idempotencyKey: newIdempotencyKey() },
      ),
    onSuccess: () => (refresh(), setPhone(''), setAmount('')),
    onSettled: () => setPin(''),
  });
  const toggle = useMutation({
    mutationFn: (v: { id: string; active: boolean }) => post('/_serverFn/toggleScheduleBearerSchedules', v),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: string) => post('/_serverFn/deleteScheduleBearerSchedules', { id }), onSuccess: refresh });
  return (
    <Section id="schedules" title={t('orders.schedules')}>
      <Failure error={list.error ?? save.error ?? toggle.error ?? remove.error} />
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
      <TextInput label={t('buy.phone')} type="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
      <AmountInput label={t('buy.amount')} min={50} value={amount} onChange={setAmount} />
      <Group grow>
        <NativeSelect
          label={t('orders.frequency')}
          value={frequency}
          onChange={(e) => setFrequency(e.currentTarget.value as typeof frequency)}
          data={(['daily', 'weekly', 'monthly'] as const).map((f) => ({ value: f, label: t(`orders.${f}`) }))}
        />
        <TextInput label={t('orders.time')} type="time" value={time} onChange={(e) => setTime(e.currentTarget.value)} />
      </Group>
      {network && typeof amount === 'number' && amount >= 50 && (
        <PinPad value={pin} onChange={setPin} onConfirm={(p) => save.mutate(p)} busy={save.isPending} />
      )}
    </Section>
  );
}
