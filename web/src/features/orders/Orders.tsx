import {
  Badge,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get, newIdempotencyKey, post } from '../../api/client';
import { AmountInput } from '../../app/AmountInput';
import { formatDateTime, formatNaira } from '../../app/format';
import { detectNetwork, normalizePhone } from '../buy/network';
import { PinPad } from '../buy/PinPad';
import { Failure, Section } from '../growth/Rewards';

/** Orders and help: marketplace and subscription orders, scheduled purchases, support chat, reporting an issue. */
export function Orders() {
  const { t } = useTranslation();
  return (
    <Stack maw={720}>
      <Title order={1}>{t('orders.title')}</Title>
      <Marketplace />
      <Subscriptions />
      <Schedules />
      <Support />
      <Report />
    </Stack>
  );
}

const NIGERIAN_STATES = [
  'Abia',
  'Adamawa',
  'Akwa Ibom',
  'Anambra',
  'Bauchi',
  'Bayelsa',
  'Benue',
  'Borno',
  'Cross River',
  'Delta',
  'Ebonyi',
  'Edo',
  'Ekiti',
  'Enugu',
  'FCT',
  'Gombe',
  'Imo',
  'Jigawa',
  'Kaduna',
  'Kano',
  'Katsina',
  'Kebbi',
  'Kogi',
  'Kwara',
  'Lagos',
  'Nasarawa',
  'Niger',
  'Ogun',
  'Ondo',
  'Osun',
  'Oyo',
  'Plateau',
  'Rivers',
  'Sokoto',
  'Taraba',
  'Yobe',
  'Zamfara',
];

function Marketplace() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const products = useQuery({
    queryKey: ['products'],
    queryFn: () => get('/_serverFn/listMarketplaceProductsBearerMarketplace', { limit: 50 }),
  });
  const orders = useQuery({
    queryKey: ['marketOrders'],
    queryFn: () => get('/_serverFn/listMyMarketplaceOrdersBearerMarketplace', { limit: 20 }),
  });
  const [productId, setProductId] = useState('');
  const [quantity, setQuantity] = useState<number | ''>(1);
  const [d, setD] = useState({ fullName: '', phone: '', address: '', city: '', state: 'Lagos' });
  const [pin, setPin] = useState('');
  const key = useRef(newIdempotencyKey());
  const product = products.data?.items.find((p) => p.id === productId);
  const order = useMutation({
    mutationFn: (p: string) =>
      post(
        '/_serverFn/createMarketplaceOrderBearerMarketplace',
        { productId, quantity: quantity as number, delivery: d, amount: product!.price * (quantity as number), pin: p },
        { idempotencyKey: key.current },
      ),
    onSuccess: () => (
      void qc.invalidateQueries({ queryKey: ['marketOrders'] }),
      void qc.invalidateQueries({ queryKey: ['wallet'] }),
      setProductId('')
    ),
    onSettled: () => ((key.current = newIdempotencyKey()), setPin('')),
  });
  const ready = product && typeof quantity === 'number' && quantity >= 1 && d.fullName && normalizePhone(d.phone) && d.address && d.city;
  return (
    <Section id="market" title={t('orders.marketplace')}>
      <Failure error={products.error ?? order.error} />
      <NativeSelect
        label={t('orders.product')}
        value={productId}
        onChange={(e) => setProductId(e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          ...(products.data?.items ?? [])
            .filter((p) => p.active && p.stock > 0)
            .map((p) => ({ value: p.id, label: `${p.name} · ${formatNaira(p.price)}` })),
        ]}
      />
      {product && (
        <>
          {product.description && <Text size="sm">{product.description}</Text>}
          <NumberInput
            label={t('bills.quantity')}
            min={1}
            max={product.stock}
            allowDecimal={false}
            allowNegative={false}
            value={quantity}
            onChange={(v) => setQuantity(typeof v === 'number' ? v : '')}
          />
          <TextInput label={t('orders.fullName')} value={d.fullName} onChange={(e) => setD({ ...d, fullName: e.currentTarget.value })} />
          <TextInput label={t('buy.phone')} type="tel" value={d.phone} onChange={(e) => setD({ ...d, phone: e.currentTarget.value })} />
          <TextInput label={t('orders.address')} value={d.address} onChange={(e) => setD({ ...d, address: e.currentTarget.value })} />
          <Group grow>
            <TextInput label={t('orders.city')} value={d.city} onChange={(e) => setD({ ...d, city: e.currentTarget.value })} />
            <NativeSelect
              label={t('orders.state')}
              value={d.state}
              onChange={(e) => setD({ ...d, state: e.currentTarget.value })}
              data={NIGERIAN_STATES}
            />
          </Group>
          {typeof quantity === 'number' && <Text fw={600}>{t('buy.price', { amount: formatNaira(product.price * quantity) })}</Text>}
          {ready && <PinPad value={pin} onChange={setPin} onConfirm={(p) => order.mutate(p)} busy={order.isPending} />}
        </>
      )}
      <OrderTable
        rows={(orders.data?.items ?? []).map((o) => ({
          id: o.id,
          what: `${o.quantity} × ${o.productName}`,
          amount: o.amount,
          status: o.status,
          at: o.createdAt,
        }))}
      />
    </Section>
  );
}

function OrderTable({ rows }: { rows: { id: string; what: string; amount: number; status: string; at: string }[] }) {
  const { t } = useTranslation();
  if (!rows.length) return null;
  return (
    <Table aria-label={t('orders.yourOrders')}>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{r.what}</Table.Td>
            <Table.Td>{formatNaira(r.amount)}</Table.Td>
            <Table.Td>
              <Badge color={r.status === 'fulfilled' ? 'green' : r.status === 'cancelled' || r.status === 'failed' ? 'red' : 'blue'}>
                {r.status}
              </Badge>
            </Table.Td>
            <Table.Td>{formatDateTime(r.at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Subscriptions() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const plans = useQuery({ queryKey: ['subPlans'], queryFn: () => get('/_serverFn/listSubscriptionPlansBearerSubscriptions', {}) });
  const orders = useQuery({
    queryKey: ['subOrders'],
    queryFn: () => get('/_serverFn/listMySubscriptionOrdersBearerSubscriptions', { limit: 20 }),
  });
  const [planId, setPlanId] = useState('');
  const [account, setAccount] = useState('');
  const [pin, setPin] = useState('');
  const key = useRef(newIdempotencyKey());
  const plan = plans.data?.items.find((p) => p.id === planId);
  const order = useMutation({
    mutationFn: (p: string) =>
      post(
        '/_serverFn/submitSubscriptionOrderBearerSubscriptions',
        { planId, account, amount: plan!.price, pin: p },
        { idempotencyKey: key.current },
      ),
    onSuccess: () => (
      void qc.invalidateQueries({ queryKey: ['subOrders'] }),
      void qc.invalidateQueries({ queryKey: ['wallet'] }),
      setPlanId('')
    ),
    onSettled: () => ((key.current = newIdempotencyKey()), setPin('')),
  });
  return (
    <Section id="subs" title={t('orders.subscriptions')}>
      <Failure error={plans.error ?? order.error} />
      <NativeSelect
        label={t('orders.plan')}
        value={planId}
        onChange={(e) => setPlanId(e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          ...(plans.data?.items ?? [])
            .filter((p) => p.active)
            .map((p) => ({ value: p.id, label: `${p.service} · ${p.name} · ${formatNaira(p.price)}` })),
        ]}
      />
      {plan && (
        <>
          <TextInput label={t('orders.account')} value={account} onChange={(e) => setAccount(e.currentTarget.value)} />
          {account.trim() && <PinPad value={pin} onChange={setPin} onConfirm={(p) => order.mutate(p)} busy={order.isPending} />}
        </>
      )}
      <OrderTable
        rows={(orders.data?.items ?? []).map((o) => ({
          id: o.id,
          what: `${o.service} · ${o.planName}`,
          amount: o.amount,
          status: o.status,
          at: o.createdAt,
        }))}
      />
    </Section>
  );
}

function Schedules() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['schedules'], queryFn: () => get('/_serverFn/listSchedulesBearerSchedules') });
  const [phone, setPhone] = useState('');
  const [amount, setAmount] = useState<number | ''>('');
  const [frequency, setFrequency] = useState<'daily' | 'weekly' | 'monthly'>('monthly');
  const [time, setTime] = useState('09:00');
  const [pin, setPin] = useState('');
  const refresh = () => void qc.invalidateQueries({ queryKey: ['schedules'] });
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

function Support() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const thread = useQuery({
    queryKey: ['thread'],
    queryFn: () => post('/_serverFn/getOrCreateThreadBearerSupport', {}).then((r) => r.thread),
    staleTime: Infinity,
  });
  const threadId = thread.data?.id;
  const messages = useQuery({
    queryKey: ['thread', threadId, 'messages'],
    queryFn: () => get('/_serverFn/listThreadMessagesBearerSupport', { threadId: threadId!, limit: 100 }),
    enabled: Boolean(threadId),
    refetchInterval: 15_000,
  });
  const [body, setBody] = useState('');
  const send = useMutation({
    mutationFn: () =>
      post('/_serverFn/sendSupportMessageBearerSupport', { threadId: threadId!, body }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (setBody(''), void qc.invalidateQueries({ queryKey: ['thread', threadId, 'messages'] })),
  });
  return (
    <Section id="support" title={t('orders.support')}>
      <Failure error={thread.error ?? messages.error ?? send.error} />
      <Stack gap="xs" role="log" aria-label={t('orders.conversation')} mah={360} style={{ overflowY: 'auto' }}>
        {(messages.data?.items ?? []).map((m) => (
          <Paper
            key={m.id}
            p="xs"
            withBorder
            bg={m.author === 'user' ? 'brand.0' : undefined}
            ml={m.author === 'user' ? 'xl' : 0}
            mr={m.author === 'user' ? 0 : 'xl'}
          >
            <Text size="xs" c="dimmed">
              {m.author === 'user' ? t('orders.you') : t('orders.agent')} · {formatDateTime(m.createdAt)}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{m.body}</Text>
          </Paper>
        ))}
      </Stack>
      <Textarea
        label={t('orders.message')}
        autosize
        minRows={2}
        maxLength={4000}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
      />
      <Button onClick={() => send.mutate()} loading={send.isPending} disabled={!body.trim() || !threadId}>
        {t('transfer.send')}
      </Button>
    </Section>
  );
}

const CATEGORIES = [
  'not_delivered',
  'failed_not_refunded',
  'wrong_amount',
  'wrong_recipient',
  'duplicate_charge',
  'unauthorised',
  'other',
] as const;

function Report() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const mine = useQuery({ queryKey: ['reports'], queryFn: () => get('/_serverFn/listMyReportsBearerReports', { limit: 20 }) });
  const [reference, setReference] = useState('');
  const [category, setCategory] = useState<(typeof CATEGORIES)[number]>('not_delivered');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () =>
      post(
        '/_serverFn/createTransactionReportBearerReports',
        { reference: reference.trim(), category, description },
        { idempotencyKey: newIdempotencyKey() },
      ),
    onSuccess: () => (setReference(''), setDescription(''), void qc.invalidateQueries({ queryKey: ['reports'] })),
  });
  return (
    <Section id="report" title={t('orders.report')}>
      <Failure error={mine.error ?? create.error} />
      <TextInput label={t('result.reference')} value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
      <NativeSelect
        label={t('orders.category')}
        value={category}
        onChange={(e) => setCategory(e.currentTarget.value as typeof category)}
        data={CATEGORIES.map((c) => ({ value: c, label: t(`orders.cat_${c}`) }))}
      />
      <Textarea
        label={t('orders.whatHappened')}
        autosize
        minRows={2}
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
      <Button onClick={() => create.mutate()} loading={create.isPending} disabled={!reference.trim() || description.trim().length < 10}>
        {t('orders.sendReport')}
      </Button>
      {(mine.data?.items ?? []).map((r) => (
        <Text key={r.id} size="sm">
          {r.reference} · {t(`orders.cat_${r.category}`)} · <Badge color={r.status === 'resolved' ? 'green' : 'blue'}>{r.status}</Badge>
          {r.resolutionNote ? ` · ${r.resolutionNote}` : ''}
        </Text>
      ))}
    </Section>
  );
}
