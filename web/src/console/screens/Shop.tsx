import { Button, Group, Select, Stack, Switch, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useSetSearch } from '../nav';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { NewPlan, NewProduct } from './ShopCreate';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as api from '../../api/calls';

const LIMIT = 20;
const MARKET_STATUSES = ['processing', 'fulfilled', 'cancelled'] as const;
const SUB_STATUSES = ['pending', 'processing', 'fulfilled', 'failed', 'cancelled'] as const;
type SubStatus = (typeof SUB_STATUSES)[number];

/**
 * The marketplace and subscription catalogue and their orders: products and plans switched on and off, orders
 * fulfilled or cancelled (cancelling refunds the customer) with a note.
 */
export function Shop() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/shop' });
  const setSearch = useSetSearch('/console/shop');
  const tab = search.tab ?? 'orders';
  const can = useCan();
  return (
    <Stack>
      <ScreenTitle title={t('console.shop.title')} />
      <Tabs value={tab} onChange={(v) => setSearch({ tab: (v ?? undefined) as typeof search.tab, status: undefined })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="orders">{t('console.shop.marketOrders')}</Tabs.Tab>
          {can('adminListMarketplaceProducts') && <Tabs.Tab value="products">{t('console.shop.products')}</Tabs.Tab>}
          <Tabs.Tab value="subscriptions">{t('console.shop.subscriptionOrders')}</Tabs.Tab>
          {can('adminListSubscriptionPlans') && <Tabs.Tab value="plans">{t('console.shop.plans')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="orders" pt="md">
          <MarketplaceOrders />
        </Tabs.Panel>
        {can('adminListMarketplaceProducts') && (
          <Tabs.Panel value="products" pt="md">
            <Products />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="subscriptions" pt="md">
          <SubscriptionOrders />
        </Tabs.Panel>
        {can('adminListSubscriptionPlans') && (
          <Tabs.Panel value="plans" pt="md">
            <Plans />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}

type Decision = { id: string; reference: string; status: string } | null;

function MarketplaceOrders() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/shop' });
  const setSearch = useSetSearch('/console/shop');
  const status = (search.status ?? 'processing') as 'processing' | 'fulfilled' | 'cancelled';
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.marketplaceOrders({ status, limit: LIMIT, offset }));
  const [decision, setDecision] = useState<Decision>(null);
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  return (
    <Stack>
      <Select
        label={t('console.shop.status')}
        data={MARKET_STATUSES.map((s) => ({ value: s, label: t(`console.shop.${s}`) }))}
        value={status}
        onChange={(v) => setSearch({ status: v ?? undefined })}
        allowDeselect={false}
        w={180}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.shop.marketCaption', { status: t(`console.shop.${status}`) })}
              rows={data.items}
              rowKey={(o) => o.id}
              empty={t('console.shop.noOrders')}
              columns={[
                { header: t('console.shop.reference'), cell: (o) => o.reference },
                { header: t('console.shop.product'), cell: (o) => `${o.productName} × ${o.quantity}` },
                { header: t('console.shop.amount'), cell: (o) => money(o.amount) },
                {
                  header: t('console.shop.deliverTo'),
                  cell: (o) =>
                    o.delivery.removed
                      ? t('console.shop.removed')
                      : [o.delivery.fullName, o.delivery.city, o.delivery.state].filter(Boolean).join(', '),
                },
                { header: t('console.shop.ordered'), cell: (o) => when(o.createdAt) },
                {
                  header: t('console.shop.status'),
                  cell: (o) =>
                    o.status === 'processing' && can('adminUpdateMarketplaceOrder') ? (
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => setDecision({ ...o, status: 'fulfilled' })}
                          aria-label={t('console.shop.fulfilLabel', { reference: o.reference })}
                        >
                          {t('console.shop.fulfil')}
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setDecision({ ...o, status: 'cancelled' })}
                          aria-label={t('console.shop.cancelLabel', { reference: o.reference })}
                        >
                          {t('console.shop.cancel')}
                        </Button>
                      </Group>
                    ) : (
                      <StatusBadge status={o.status} />
                    ),
                },
              ]}
            />
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={data.hasMore}
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <ReasonDialog
        opened={decision !== null}
        optional
        title={t(decision?.status === 'fulfilled' ? 'console.shop.fulfilTitle' : 'console.shop.cancelTitle', {
          reference: decision?.reference ?? '',
        })}
        confirm={t(decision?.status === 'fulfilled' ? 'console.shop.markFulfilled' : 'console.shop.cancelOrder')}
        onClose={() => setDecision(null)}
        onConfirm={async (note) => {
          await stepUp.withGrant((grantToken) =>
            api.adminUpdateMarketplaceOrder(
              {
                id: decision!.id,
                status: decision!.status as 'fulfilled' | 'cancelled',
                ...(note ? { note } : {}),
              },
              grantToken ? { grantToken } : {},
            ),
          );
          await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'marketplaceOrders'] });
        }}
      />
      {stepUp.modal}
    </Stack>
  );
}

function SubscriptionOrders() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/shop' });
  const setSearch = useSetSearch('/console/shop');
  const status = (search.status ?? 'pending') as SubStatus;
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.subscriptionOrders({ status, limit: LIMIT, offset }));
  const [decision, setDecision] = useState<Decision>(null);
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  const next = (s: string): SubStatus[] =>
    s === 'pending' ? ['processing', 'fulfilled', 'failed', 'cancelled'] : s === 'processing' ? ['fulfilled', 'failed'] : [];
  return (
    <Stack>
      <Select
        label={t('console.shop.status')}
        data={SUB_STATUSES.map((s) => ({ value: s, label: t(`console.shop.${s}`) }))}
        value={status}
        onChange={(v) => setSearch({ status: v ?? undefined })}
        allowDeselect={false}
        w={180}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.shop.subscriptionCaption', { status: t(`console.shop.${status}`) })}
              rows={data.items}
              rowKey={(o) => o.id}
              empty={t('console.shop.noOrders')}
              columns={[
                { header: t('console.shop.reference'), cell: (o) => o.reference },
                { header: t('console.shop.plan'), cell: (o) => `${o.service}: ${o.planName}` },
                { header: t('console.shop.account'), cell: (o) => o.account },
                { header: t('console.shop.amount'), cell: (o) => money(o.amount) },
                { header: t('console.shop.ordered'), cell: (o) => when(o.createdAt) },
                {
                  header: t('console.shop.status'),
                  cell: (o) => (
                    <Group gap={4}>
                      <StatusBadge status={o.status} />
                      {(can('adminUpdateSubscriptionOrder') ? next(o.status) : []).map((s) => (
                        <Button
                          key={s}
                          size="compact-xs"
                          variant="default"
                          onClick={() => setDecision({ ...o, status: s })}
                          aria-label={t('console.shop.markLabel', { reference: o.reference, status: t(`console.shop.${s}`) })}
                        >
                          {t(`console.shop.${s}`)}
                        </Button>
                      ))}
                    </Group>
                  ),
                },
              ]}
            />
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={data.hasMore}
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <ReasonDialog
        opened={decision !== null}
        optional
        title={
          decision
            ? t('console.shop.markLabel', { reference: decision.reference, status: t(`console.shop.${decision.status as SubStatus}`) })
            : ''
        }
        confirm={t('console.shop.save')}
        onClose={() => setDecision(null)}
        onConfirm={async (note) => {
          await stepUp.withGrant((grantToken) =>
            api.adminUpdateSubscriptionOrder(
              {
                id: decision!.id,
                status: decision!.status as 'processing' | 'fulfilled' | 'failed' | 'cancelled',
                ...(note ? { note } : {}),
              },
              grantToken ? { grantToken } : {},
            ),
          );
          await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'subscriptionOrders'] });
        }}
      />
      {stepUp.modal}
    </Stack>
  );
}

function Products() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/console/shop' });
  const setSearch = useSetSearch('/console/shop');
  const offset = search.offset ?? 0;
  const list = useQuery(adminQueries.products({ limit: LIMIT, offset }));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const toggle = async (id: string, active: boolean) => {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => api.adminUpdateProduct({ id, active }, grantToken ? { grantToken } : {}));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'products'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Stack>
      <NewProduct stepUp={stepUp} />
      <Failure error={error} />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={t('console.shop.productsCaption')}
              rows={data.items}
              rowKey={(p) => p.id}
              empty={t('console.shop.noProducts')}
              columns={[
                { header: t('console.shop.product'), cell: (p) => p.name },
                { header: t('console.shop.price'), cell: (p) => money(p.price) },
                { header: t('console.shop.stock'), cell: (p) => p.stock },
                {
                  header: t('console.shop.onSale'),
                  cell: (p) => (
                    <Switch
                      checked={p.active}
                      onChange={(e) => void toggle(p.id, e.currentTarget.checked)}
                      aria-label={t('console.shop.onSaleLabel', { name: p.name })}
                    />
                  ),
                },
              ]}
            />
            <Pager
              offset={offset}
              limit={LIMIT}
              count={data.items.length}
              hasMore={data.hasMore}
              onChange={(o) => setSearch({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      {stepUp.modal}
    </Stack>
  );
}

function Plans() {
  const { t } = useTranslation();
  const list = useQuery(adminQueries.plans({}));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const toggle = async (id: string, active: boolean) => {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => api.adminUpdateSubscriptionPlan({ id, active }, grantToken ? { grantToken } : {}));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'plans'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Stack>
      <NewPlan stepUp={stepUp} />
      <Failure error={error} />
      <Loaded query={list}>
        {(data) => (
          <DataTable
            caption={t('console.shop.plans')}
            rows={data.items}
            rowKey={(p) => p.id}
            empty={t('console.shop.noPlans')}
            columns={[
              { header: t('console.shop.service'), cell: (p) => `${p.service} (${p.category})` },
              { header: t('console.shop.plan'), cell: (p) => p.name },
              { header: t('console.shop.price'), cell: (p) => money(p.price) },
              {
                header: t('console.shop.onSale'),
                cell: (p) => (
                  <Switch
                    checked={p.active}
                    onChange={(e) => void toggle(p.id, e.currentTarget.checked)}
                    aria-label={t('console.shop.onSaleLabel', { name: `${p.service} ${p.name}` })}
                  />
                ),
              },
            ]}
          />
        )}
      </Loaded>
      {stepUp.modal}
    </Stack>
  );
}
