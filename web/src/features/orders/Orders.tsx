import { Badge, Group, NativeSelect, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { useRef, useState } from 'react';

import { useTranslation } from 'react-i18next';

import { newIdempotencyKey, post } from '../../api/client';

import { formatDateTime, formatNaira } from '../../app/format';

import { normalizePhone } from '../../app/network';
import { PinPad } from '../../components/PinPad';

import { Failure } from '../../components/Failure';
import { Section } from '../../components/Section';

import { Schedules } from './Schedules';

import { Report, Support } from './Support';
import { ordersQueries } from '../../api/queries/orders';
import { walletQueries } from '../../api/queries/wallet';

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
  const products = useQuery(ordersQueries.products());
  const orders = useQuery(ordersQueries.marketOrders());
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
      void qc.invalidateQueries({ queryKey: ordersQueries.marketOrders().queryKey }),
      void qc.invalidateQueries({ queryKey: walletQueries.all() }),
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
  const plans = useQuery(ordersQueries.subscriptionPlans());
  const orders = useQuery(ordersQueries.subscriptionOrders());
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
      void qc.invalidateQueries({ queryKey: ordersQueries.subscriptionOrders().queryKey }),
      void qc.invalidateQueries({ queryKey: walletQueries.all() }),
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
