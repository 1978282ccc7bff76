import { Button, Group, Select, Stack, Switch, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { post } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useScreenSearch } from '../nav';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { NewPlan, NewProduct } from './ShopCreate';
import { DataTable, Pager } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ReasonDialog } from '../../components/ReasonDialog';
import { ScreenTitle } from '../../components/ScreenTitle';
import { StatusBadge } from '../../components/StatusBadge';
import * as ops from '../../api/operations';

const LIMIT = 20;

/**
 * The marketplace and subscription catalogue and their orders: products and plans switched on and off, orders
 * fulfilled or cancelled (cancelling refunds the customer) with a note.
 */
export function Shop() {
  const search = useScreenSearch();
  const tab = search.text('tab') || 'orders';
  const can = useCan();
  return (
    <Stack>
      <ScreenTitle title="Marketplace and subscriptions" />
      <Tabs value={tab} onChange={(v) => search.set({ tab: v ?? undefined, status: undefined })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="orders">Marketplace orders</Tabs.Tab>
          {can('adminListMarketplaceProducts') && <Tabs.Tab value="products">Products</Tabs.Tab>}
          <Tabs.Tab value="subscriptions">Subscription orders</Tabs.Tab>
          {can('adminListSubscriptionPlans') && <Tabs.Tab value="plans">Subscription plans</Tabs.Tab>}
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
  const search = useScreenSearch();
  const status = (search.text('status') || 'processing') as 'processing' | 'fulfilled' | 'cancelled';
  const offset = search.num('offset', 0);
  const list = useQuery(adminQueries.marketplaceOrders({ status, limit: LIMIT, offset }));
  const [decision, setDecision] = useState<Decision>(null);
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  return (
    <Stack>
      <Select
        label="Status"
        data={['processing', 'fulfilled', 'cancelled']}
        value={status}
        onChange={(v) => search.set({ status: v ?? undefined })}
        allowDeselect={false}
        w={180}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={`${status} marketplace orders`}
              rows={data.items}
              rowKey={(o) => o.id}
              empty="No orders."
              columns={[
                { header: 'Reference', cell: (o) => o.reference },
                { header: 'Product', cell: (o) => `${o.productName} × ${o.quantity}` },
                { header: 'Amount', cell: (o) => money(o.amount) },
                {
                  header: 'Deliver to',
                  cell: (o) =>
                    o.delivery.removed ? 'removed' : [o.delivery.fullName, o.delivery.city, o.delivery.state].filter(Boolean).join(', '),
                },
                { header: 'Ordered', cell: (o) => when(o.createdAt) },
                {
                  header: 'Status',
                  cell: (o) =>
                    o.status === 'processing' && can('adminUpdateMarketplaceOrder') ? (
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => setDecision({ ...o, status: 'fulfilled' })}
                          aria-label={`Fulfil ${o.reference}`}
                        >
                          Fulfil
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setDecision({ ...o, status: 'cancelled' })}
                          aria-label={`Cancel ${o.reference}`}
                        >
                          Cancel
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <ReasonDialog
        opened={decision !== null}
        optional
        title={`${decision?.status === 'fulfilled' ? 'Fulfil' : 'Cancel and refund'} ${decision?.reference ?? ''}`}
        confirm={decision?.status === 'fulfilled' ? 'Mark fulfilled' : 'Cancel order'}
        onClose={() => setDecision(null)}
        onConfirm={async (note) => {
          await stepUp.withGrant((grantToken) =>
            post(
              ops.adminUpdateMarketplaceOrder,
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
  const search = useScreenSearch();
  const status = (search.text('status') || 'pending') as 'pending' | 'processing' | 'fulfilled' | 'failed' | 'cancelled';
  const offset = search.num('offset', 0);
  const list = useQuery(adminQueries.subscriptionOrders({ status, limit: LIMIT, offset }));
  const [decision, setDecision] = useState<Decision>(null);
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  const next = (s: string) =>
    s === 'pending' ? ['processing', 'fulfilled', 'failed', 'cancelled'] : s === 'processing' ? ['fulfilled', 'failed'] : [];
  return (
    <Stack>
      <Select
        label="Status"
        data={['pending', 'processing', 'fulfilled', 'failed', 'cancelled']}
        value={status}
        onChange={(v) => search.set({ status: v ?? undefined })}
        allowDeselect={false}
        w={180}
      />
      <Loaded query={list}>
        {(data) => (
          <Stack>
            <DataTable
              caption={`${status} subscription orders`}
              rows={data.items}
              rowKey={(o) => o.id}
              empty="No orders."
              columns={[
                { header: 'Reference', cell: (o) => o.reference },
                { header: 'Plan', cell: (o) => `${o.service}: ${o.planName}` },
                { header: 'Account', cell: (o) => o.account },
                { header: 'Amount', cell: (o) => money(o.amount) },
                { header: 'Ordered', cell: (o) => when(o.createdAt) },
                {
                  header: 'Status',
                  cell: (o) => (
                    <Group gap={4}>
                      <StatusBadge status={o.status} />
                      {(can('adminUpdateSubscriptionOrder') ? next(o.status) : []).map((s) => (
                        <Button
                          key={s}
                          size="compact-xs"
                          variant="default"
                          onClick={() => setDecision({ ...o, status: s })}
                          aria-label={`Mark ${o.reference} ${s}`}
                        >
                          {s}
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      <ReasonDialog
        opened={decision !== null}
        optional
        title={`Mark ${decision?.reference ?? ''} ${decision?.status ?? ''}`}
        confirm="Save"
        onClose={() => setDecision(null)}
        onConfirm={async (note) => {
          await stepUp.withGrant((grantToken) =>
            post(
              ops.adminUpdateSubscriptionOrder,
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
  const search = useScreenSearch();
  const offset = search.num('offset', 0);
  const list = useQuery(adminQueries.products({ limit: LIMIT, offset }));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const toggle = async (id: string, active: boolean) => {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => post(ops.adminUpdateProduct, { id, active }, grantToken ? { grantToken } : {}));
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
              caption="Marketplace products"
              rows={data.items}
              rowKey={(p) => p.id}
              empty="No products yet."
              columns={[
                { header: 'Product', cell: (p) => p.name },
                { header: 'Price', cell: (p) => money(p.price) },
                { header: 'Stock', cell: (p) => p.stock },
                {
                  header: 'On sale',
                  cell: (p) => (
                    <Switch
                      checked={p.active}
                      onChange={(e) => void toggle(p.id, e.currentTarget.checked)}
                      aria-label={`${p.name} on sale`}
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
              onChange={(o) => search.set({ offset: o })}
            />
          </Stack>
        )}
      </Loaded>
      {stepUp.modal}
    </Stack>
  );
}

function Plans() {
  const list = useQuery(adminQueries.plans({}));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const toggle = async (id: string, active: boolean) => {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => post(ops.adminUpdateSubscriptionPlan, { id, active }, grantToken ? { grantToken } : {}));
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
            caption="Subscription plans"
            rows={data.items}
            rowKey={(p) => p.id}
            empty="No plans yet."
            columns={[
              { header: 'Service', cell: (p) => `${p.service} (${p.category})` },
              { header: 'Plan', cell: (p) => p.name },
              { header: 'Price', cell: (p) => money(p.price) },
              {
                header: 'On sale',
                cell: (p) => (
                  <Switch
                    checked={p.active}
                    onChange={(e) => void toggle(p.id, e.currentTarget.checked)}
                    aria-label={`${p.service} ${p.name} on sale`}
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
