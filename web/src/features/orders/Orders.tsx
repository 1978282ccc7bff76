import { Group, NativeSelect, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useRef, useState } from 'react';

import { useTranslation } from 'react-i18next';

import { newIdempotencyKey } from '../../api/client';

import { formatDateTime, formatNaira } from '../../app/format';

import { marketOrderSchema, subscriptionOrderSchema } from '../../api/schemas';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { PinPad } from '../../components/PinPad';

import { Failure } from '../../components/Failure';
import { Section } from '../../components/Section';

import { Schedules } from './Schedules';

import { Report, Support } from './Support';
import { ordersQueries } from '../../api/queries/orders';
import { walletQueries } from '../../api/queries/wallet';
import { capitalised, productName } from '../../app/catalogue-labels';
import * as api from '../../api/calls';
import { StatusBadge } from '../../components/StatusBadge';

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

const HINTS: FieldHints = { 'delivery.phone': 'buy.phoneInvalid' };

function Marketplace() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const products = useQuery(ordersQueries.products());
  const orders = useQuery(ordersQueries.marketOrders());
  const [productId, setProductId] = useState('');
  // createMarketplaceOrder's own rules (api/schemas.ts): the quantity and the delivery address; the PIN pad confirms.
  const form = useSchemaForm(
    marketOrderSchema,
    { quantity: 1 as number | '', delivery: { fullName: '', phone: '', address: '', city: '', state: 'Lagos' } },
    HINTS,
  );
  const [pin, setPin] = useState('');
  const [underFields, setUnderFields] = useState(false);
  const key = useRef(newIdempotencyKey());
  const product = products.data?.items.find((p) => p.id === productId);
  const order = useMutation({
    mutationFn: (v: { quantity: number; delivery: Record<string, string>; amount: number; pin: string }) =>
      api.createMarketplaceOrder(
        { productId, ...v, delivery: v.delivery as { fullName: string; phone: string; address: string; city: string; state: string } },
        { idempotencyKey: key.current },
      ),
    onSuccess: () => (
      void qc.invalidateQueries({ queryKey: ordersQueries.marketOrders().queryKey }),
      void qc.invalidateQueries({ queryKey: walletQueries.all() }),
      setProductId('')
    ),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
    onSettled: () => ((key.current = newIdempotencyKey()), setPin('')),
  });
  function confirm(p: string) {
    const checked = marketOrderSchema.safeParse(form.getValues());
    if (form.validate().hasErrors || !checked.success || !product) return setPin('');
    if (checked.data.quantity > product.stock)
      return (form.setFieldError('quantity', t('form.atMost', { maximum: String(product.stock) })), setPin(''));
    order.mutate({ ...checked.data, amount: product.price * checked.data.quantity, pin: p });
  }
  const quantity = form.getValues().quantity;
  return (
    <Section id="market" title={t('orders.marketplace')}>
      <Failure error={products.error ?? (underFields ? null : order.error)} />
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
            {...form.getInputProps('quantity')}
            onChange={(v) => form.setFieldValue('quantity', typeof v === 'number' ? v : '')}
            required
          />
          <TextInput label={t('orders.fullName')} {...form.getInputProps('delivery.fullName')} required />
          <TextInput label={t('buy.phone')} type="tel" {...form.getInputProps('delivery.phone')} required />
          <TextInput label={t('orders.address')} {...form.getInputProps('delivery.address')} required />
          <Group grow>
            <TextInput label={t('orders.city')} {...form.getInputProps('delivery.city')} required />
            <NativeSelect label={t('orders.state')} {...form.getInputProps('delivery.state')} data={NIGERIAN_STATES} />
          </Group>
          {typeof quantity === 'number' && <Text fw={600}>{t('buy.price', { amount: formatNaira(product.price * quantity) })}</Text>}
          <PinPad value={pin} onChange={setPin} onConfirm={confirm} busy={order.isPending} />
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
              <StatusBadge
                status={r.status}
                label={t(`orders.status_${r.status}` as 'orders.status_processing', { defaultValue: capitalised(r.status) })}
              />
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
  const plans = useQuery(ordersQueries.subscriptionPlans());
  const orders = useQuery(ordersQueries.subscriptionOrders());
  const [planId, setPlanId] = useState('');
  // submitSubscriptionOrder's own rule for the account to credit (api/schemas.ts); the PIN pad confirms.
  const form = useSchemaForm(subscriptionOrderSchema, { account: '' });
  const [pin, setPin] = useState('');
  const [underFields, setUnderFields] = useState(false);
  const key = useRef(newIdempotencyKey());
  const plan = plans.data?.items.find((p) => p.id === planId);
  const order = useMutation({
    mutationFn: (v: { account: string; pin: string }) =>
      api.submitSubscriptionOrder({ planId, ...v, amount: plan!.price }, { idempotencyKey: key.current }),
    onSuccess: () => (
      void qc.invalidateQueries({ queryKey: ordersQueries.subscriptionOrders().queryKey }),
      void qc.invalidateQueries({ queryKey: walletQueries.all() }),
      setPlanId(''),
      form.reset()
    ),
    onError: (err) => setUnderFields(showServerIssues(form, err)),
    onSettled: () => ((key.current = newIdempotencyKey()), setPin('')),
  });
  function confirm(p: string) {
    const checked = subscriptionOrderSchema.safeParse(form.getValues());
    if (form.validate().hasErrors || !checked.success) return setPin('');
    order.mutate({ account: checked.data.account, pin: p });
  }
  return (
    <Section id="subs" title={t('orders.subscriptions')}>
      <Failure error={plans.error ?? (underFields ? null : order.error)} />
      <NativeSelect
        label={t('orders.plan')}
        value={planId}
        onChange={(e) => setPlanId(e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          ...(plans.data?.items ?? [])
            .filter((p) => p.active)
            .map((p) => ({ value: p.id, label: `${productName(p.service)} · ${p.name} · ${formatNaira(p.price)}` })),
        ]}
      />
      {plan && (
        <>
          <TextInput label={t('orders.account')} {...form.getInputProps('account')} required />
          <PinPad value={pin} onChange={setPin} onConfirm={confirm} busy={order.isPending} />
        </>
      )}
      <OrderTable
        rows={(orders.data?.items ?? []).map((o) => ({
          id: o.id,
          what: `${productName(o.service)} · ${o.planName}`,
          amount: o.amount,
          status: o.status,
          at: o.createdAt,
        }))}
      />
    </Section>
  );
}
