import { Alert, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post } from '../../api/client';
import { adminQueries, consoleQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { MarkupConfirm, type MarkupDraft, type MarkupPreview } from './MarkupPreview';
import { PlanPrices } from './PlanPrices';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import * as ops from '../../api/operations';

// The providers adminSetMarkup accepts (its providerInput). The services are the service kinds the floats list (every
// kind sold is routed to a provider), so a kind added on the service shows here without a change to this screen;
// adminSetMarkup checks the name again.
const PROVIDERS = ['a', 'b', 'c', 'd'] as const;
const serviceInput = z.string().min(1, 'Choose a service');
const providerInput = z.enum(PROVIDERS);

// adminSetMarkup's rules: flat naira or a percent up to 100.
const markupSchema = z
  .object({
    service: serviceInput,
    provider: z.union([z.literal(''), providerInput]),
    kind: z.enum(['flat', 'percent']),
    value: z.number().min(0).max(1_000_000),
  })
  .refine((v) => v.kind !== 'percent' || v.value <= 100, { message: 'at most 100', path: ['value'] });
// adminFundProviderFloat: ₦1,000 to ₦100,000,000.
const fundSchema = z.object({ provider: providerInput, amount: z.number().min(1000).max(100_000_000) });

/** Pricing and providers: markups per service (and per provider, which routes price), provider floats and funding. */
export function Catalogue() {
  const can = useCan();
  return (
    <Stack>
      <ScreenTitle title="Catalogue and pricing" />
      <PlanPrices />
      {can('adminListMarkups') && <Markups />}
      <Floats />
    </Stack>
  );
}

function Markups() {
  const list = useQuery(adminQueries.markups());
  const floats = useQuery(adminQueries.floats());
  const services = [...new Set((floats.data?.items ?? []).flatMap((f) => f.services))];
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useSchemaForm(markupSchema, { service: 'airtime', provider: '', kind: 'flat', value: 0 as number | '' });
  // Issue 44: a markup says which prices it changes, old and new, before it is set.
  const [review, setReview] = useState<{ draft: MarkupDraft; preview: MarkupPreview } | null>(null);
  async function set(draft: MarkupDraft) {
    setReview(null);
    const { network: _n, identifier: _i, ...markup } = draft;
    try {
      const r = await stepUp.withGrant((grantToken) => post(ops.adminSetMarkup, markup, grantToken ? { grantToken } : {}));
      setSaved(`Saved: ${r.markup.service}${r.markup.provider ? ` at provider ${r.markup.provider}` : ''}.`);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'markups'] });
    } catch (err) {
      if (!showServerIssues(form, err)) setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="markups">
      <Stack>
        <Title order={2} size="h4" id="markups">
          Markups
        </Title>
        <Loaded query={list}>
          {(data) => (
            <DataTable
              caption="Markup per service and provider (a provider's own row wins over the service's)"
              rows={data.items}
              rowKey={(m) => `${m.service}-${m.provider ?? '*'}`}
              empty="No markups set: prices are the providers' own."
              columns={[
                { header: 'Service', cell: (m) => m.service },
                { header: 'Provider', cell: (m) => m.provider ?? 'all' },
                { header: 'Markup', cell: (m) => (m.kind === 'flat' ? money(m.value) : `${m.value}%`) },
                { header: 'Updated', cell: (m) => when(m.updatedAt) },
              ]}
            />
          )}
        </Loaded>
        <form
          aria-label="Set a markup"
          onSubmit={form.onSubmit(async (v) => {
            setError(null);
            setSaved(null);
            const draft: MarkupDraft = {
              service: v.service,
              kind: v.kind,
              value: Number(v.value),
              ...(v.provider ? { provider: v.provider as NonNullable<MarkupDraft['provider']> } : {}),
              ...(v.service === 'cable' ? { identifier: 'dstv' } : {}),
            };
            try {
              setReview({ draft, preview: await post(ops.adminPreviewMarkup, draft) });
            } catch (err) {
              if (!showServerIssues(form, err)) setError(err);
            }
          })}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} style={{ alignItems: 'end' }}>
            {/* The services come with the floats: until they are read the list would open empty. */}
            <Select
              label="Service"
              data={services}
              disabled={services.length === 0}
              allowDeselect={false}
              {...form.getInputProps('service')}
            />
            <Select
              label="Provider"
              data={[{ value: '', label: 'All providers' }, ...PROVIDERS.map((p) => ({ value: p, label: `Provider ${p.toUpperCase()}` }))]}
              allowDeselect={false}
              {...form.getInputProps('provider')}
            />
            <Select
              label="Kind"
              data={[
                { value: 'flat', label: 'Flat (naira)' },
                { value: 'percent', label: 'Percent' },
              ]}
              allowDeselect={false}
              {...form.getInputProps('kind')}
            />
            <NumberInput label="Value" min={0} decimalScale={2} {...form.getInputProps('value')} />
            <Button type="submit">Set markup</Button>
          </SimpleGrid>
        </form>
        <Failure error={error} />
        {saved && (
          <Alert color="green" role="status">
            {saved}
          </Alert>
        )}
      </Stack>
      <MarkupConfirm review={review} onCancel={() => setReview(null)} onConfirm={(d) => void set(d)} />
      {stepUp.modal}
    </Card>
  );
}

function Floats() {
  const list = useQuery(adminQueries.floats());
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useSchemaForm(fundSchema, { provider: 'a', amount: '' as number | '' });
  // Issue 44: a float move says what will happen (from the pool, to which float, the balances before and after) first.
  const [move, setMove] = useState<{ provider: (typeof PROVIDERS)[number]; amount: number } | null>(null);
  const pool = useQuery(consoleQueries.floats());
  const floatOf = (p: string) => list.data?.items.find((f) => f.provider === p)?.ledgerFloat ?? null;
  async function fund(m: { provider: (typeof PROVIDERS)[number]; amount: number }) {
    setMove(null);
    try {
      const r = await stepUp.withGrant((grantToken) => post(ops.adminFundProviderFloat, m, grantToken ? { grantToken } : {}));
      setSaved(`Funded provider ${r.provider} with ${money(r.amount)}: its balance is ${money(r.providerBalance)}.`);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'floats'] });
    } catch (err) {
      if (!showServerIssues(form, err)) setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="floats">
      <Stack>
        <Title order={2} size="h4" id="floats">
          Provider floats
        </Title>
        <Loaded query={list}>
          {(data) => (
            <DataTable
              caption="Float per provider: our ledger and the provider's own balance"
              rows={data.items}
              rowKey={(f) => f.provider}
              columns={[
                { header: 'Provider', cell: (f) => f.provider },
                { header: 'Services', cell: (f) => f.services.join(', ') },
                { header: 'Ledger float', cell: (f) => money(f.ledgerFloat) },
                { header: 'Provider balance', cell: (f) => money(f.providerBalance) },
              ]}
            />
          )}
        </Loaded>
        <form
          aria-label="Fund a provider float"
          onSubmit={form.onSubmit((v) => {
            setError(null);
            setSaved(null);
            setMove({ provider: v.provider as (typeof PROVIDERS)[number], amount: Number(v.amount) });
          })}
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ alignItems: 'end' }}>
            <Select
              label="Provider"
              data={PROVIDERS.map((p) => ({ value: p, label: `Provider ${p.toUpperCase()}` }))}
              allowDeselect={false}
              {...form.getInputProps('provider')}
            />
            <NumberInput label="Amount (naira)" min={1000} thousandSeparator="," {...form.getInputProps('amount')} />
            <Group>
              <Button type="submit">Fund float</Button>
            </Group>
          </SimpleGrid>
        </form>
        <Failure error={error} />
        {saved && (
          <Alert color="green" role="status">
            {saved}
          </Alert>
        )}
      </Stack>
      <Modal
        opened={move !== null}
        onClose={() => setMove(null)}
        title="Confirm the float move"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {move && (
          <Stack>
            <Text size="sm">
              {money(move.amount)} moves from the collections pool
              {pool.data
                ? ` (${money(pool.data.collections.balance)} now, ${money(pool.data.collections.balance - move.amount)} after)`
                : ''}{' '}
              to provider {move.provider.toUpperCase()}
              {floatOf(move.provider) !== null
                ? `, whose float on our books goes from ${money(floatOf(move.provider))} to ${money(floatOf(move.provider)! + move.amount)}`
                : ''}
              .
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setMove(null)}>
                Cancel
              </Button>
              <Button onClick={() => void fund(move)}>Move {money(move.amount)}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {stepUp.modal}
    </Card>
  );
}
