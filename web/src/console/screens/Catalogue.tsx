import { Alert, Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminQueries, consoleQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import i18next from 'i18next';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { MarkupConfirm, type MarkupDraft, type MarkupPreview } from './MarkupPreview';
import { PlanPrices } from './PlanPrices';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money, when } from '../../app/format';
import { ScreenTitle } from '../../components/ScreenTitle';
import * as api from '../../api/calls';

// The providers adminSetMarkup accepts (its providerInput). The services are the service kinds the floats list (every
// kind sold is routed to a provider), so a kind added on the service shows here without a change to this screen;
// adminSetMarkup checks the name again.
const PROVIDERS = ['a', 'b', 'c', 'd'] as const;
const serviceInput = z.string().min(1);
const providerInput = z.enum(PROVIDERS);

// adminSetMarkup's rules: flat naira or a percent up to 100.
const markupSchema = z
  .object({
    service: serviceInput,
    provider: z.union([z.literal(''), providerInput]),
    kind: z.enum(['flat', 'percent']),
    value: z.number().min(0).max(1_000_000),
  })
  .refine((v) => v.kind !== 'percent' || v.value <= 100, { path: ['value'] });
// A percent markup's bound in words.
const MARKUP_HINTS: FieldHints = {
  value: (issue) => (issue.code === 'custom' ? i18next.t('form.atMost', { maximum: '100' }) : undefined),
};
// adminFundProviderFloat: ₦1,000 to ₦100,000,000.
const fundSchema = z.object({ provider: providerInput, amount: z.number().min(1000).max(100_000_000) });

/** Pricing and providers: markups per service (and per provider, which routes price), provider floats and funding. */
export function Catalogue() {
  const { t } = useTranslation();
  const can = useCan();
  // The dashboard's floats tile opens the floats themselves (section=floats): first on the screen, the focus on them.
  const floatsFirst = useSearch({ from: '/console/catalogue' }).section === 'floats';
  return (
    <Stack>
      <ScreenTitle title={t('console.catalogue.title')} />
      {floatsFirst && <Floats focus />}
      <PlanPrices />
      {can('adminListMarkups') && <Markups />}
      {!floatsFirst && <Floats />}
    </Stack>
  );
}

function Markups() {
  const { t } = useTranslation();
  const list = useQuery(adminQueries.markups());
  const floats = useQuery(adminQueries.floats());
  const services = [...new Set((floats.data?.items ?? []).flatMap((f) => f.services))];
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useSchemaForm(markupSchema, { service: 'airtime', provider: '', kind: 'flat', value: 0 as number | '' }, MARKUP_HINTS);
  // Issue 44: a markup says which prices it changes, old and new, before it is set.
  const [review, setReview] = useState<{ draft: MarkupDraft; preview: MarkupPreview } | null>(null);
  async function set(draft: MarkupDraft) {
    setReview(null);
    const { network: _n, identifier: _i, ...markup } = draft;
    try {
      const r = await stepUp.withGrant((grantToken) => api.adminSetMarkup(markup, grantToken ? { grantToken } : {}));
      setSaved(
        r.markup.provider
          ? t('console.catalogue.savedAt', { service: r.markup.service, provider: r.markup.provider })
          : t('console.catalogue.saved', { service: r.markup.service }),
      );
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'markups'] });
    } catch (err) {
      if (!showServerIssues(form, err, MARKUP_HINTS)) setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="markups">
      <Stack>
        <Title order={2} size="h4" id="markups">
          {t('console.catalogue.markups')}
        </Title>
        <Loaded query={list}>
          {(data) => (
            <DataTable
              caption={t('console.catalogue.markupsCaption')}
              rows={data.items}
              rowKey={(m) => `${m.service}-${m.provider ?? '*'}`}
              empty={t('console.catalogue.noMarkups')}
              columns={[
                { header: t('console.catalogue.service'), cell: (m) => m.service },
                { header: t('console.catalogue.provider'), cell: (m) => m.provider ?? t('console.catalogue.all') },
                { header: t('console.catalogue.markup'), cell: (m) => (m.kind === 'flat' ? money(m.value) : `${m.value}%`) },
                { header: t('console.catalogue.updated'), cell: (m) => when(m.updatedAt) },
              ]}
            />
          )}
        </Loaded>
        <form
          noValidate
          aria-label={t('console.catalogue.setMarkup')}
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
              setReview({ draft, preview: await api.adminPreviewMarkup(draft) });
            } catch (err) {
              if (!showServerIssues(form, err, MARKUP_HINTS)) setError(err);
            }
          })}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} style={{ alignItems: 'end' }}>
            {/* The services come with the floats: until they are read the list would open empty. */}
            <Select
              label={t('console.catalogue.service')}
              data={services}
              disabled={services.length === 0}
              allowDeselect={false}
              {...form.getInputProps('service')}
            />
            <Select
              label={t('console.catalogue.provider')}
              data={[
                { value: '', label: t('console.catalogue.allProviders') },
                ...PROVIDERS.map((p) => ({ value: p, label: t('console.catalogue.providerName', { name: p.toUpperCase() }) })),
              ]}
              allowDeselect={false}
              {...form.getInputProps('provider')}
            />
            <Select
              label={t('console.catalogue.kind')}
              data={[
                { value: 'flat', label: t('console.catalogue.flat') },
                { value: 'percent', label: t('console.catalogue.percent') },
              ]}
              allowDeselect={false}
              {...form.getInputProps('kind')}
            />
            <NumberInput label={t('console.catalogue.value')} min={0} decimalScale={2} {...form.getInputProps('value')} />
            <Button type="submit">{t('console.catalogue.setButton')}</Button>
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

function Floats({ focus = false }: { focus?: boolean }) {
  const { t } = useTranslation();
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) title.current?.focus();
  }, [focus]);
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
      const r = await stepUp.withGrant((grantToken) => api.adminFundProviderFloat(m, grantToken ? { grantToken } : {}));
      setSaved(t('console.catalogue.funded', { provider: r.provider, amount: money(r.amount), balance: money(r.providerBalance) }));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'floats'] });
    } catch (err) {
      if (!showServerIssues(form, err)) setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="floats">
      <Stack>
        <Title order={2} size="h4" id="floats" ref={title} tabIndex={-1}>
          {t('console.catalogue.floats')}
        </Title>
        <Loaded query={list}>
          {(data) => (
            <DataTable
              caption={t('console.catalogue.floatsCaption')}
              rows={data.items}
              rowKey={(f) => f.provider}
              columns={[
                { header: t('console.catalogue.provider'), cell: (f) => f.provider },
                { header: t('console.catalogue.services'), cell: (f) => f.services.join(', ') },
                { header: t('console.catalogue.ledgerFloat'), cell: (f) => money(f.ledgerFloat) },
                { header: t('console.catalogue.providerBalance'), cell: (f) => money(f.providerBalance) },
              ]}
            />
          )}
        </Loaded>
        <form
          noValidate
          aria-label={t('console.catalogue.fund')}
          onSubmit={form.onSubmit((v) => {
            setError(null);
            setSaved(null);
            setMove({ provider: v.provider as (typeof PROVIDERS)[number], amount: Number(v.amount) });
          })}
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ alignItems: 'end' }}>
            <Select
              label={t('console.catalogue.provider')}
              data={PROVIDERS.map((p) => ({ value: p, label: t('console.catalogue.providerName', { name: p.toUpperCase() }) }))}
              allowDeselect={false}
              {...form.getInputProps('provider')}
            />
            <NumberInput label={t('console.catalogue.amount')} min={1000} thousandSeparator="," {...form.getInputProps('amount')} />
            <Group>
              <Button type="submit">{t('console.catalogue.fundButton')}</Button>
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
        title={t('console.catalogue.confirmMove')}
        closeButtonProps={{ 'aria-label': t('console.catalogue.close') }}
      >
        {move && (
          <Stack>
            <Text size="sm">
              {t('console.catalogue.moves', { amount: money(move.amount) })}
              {pool.data
                ? t('console.catalogue.pool', {
                    now: money(pool.data.collections.balance),
                    after: money(pool.data.collections.balance - move.amount),
                  })
                : ''}{' '}
              {t('console.catalogue.toProvider', { provider: move.provider.toUpperCase() })}
              {floatOf(move.provider) !== null
                ? t('console.catalogue.floatGoes', {
                    before: money(floatOf(move.provider)),
                    after: money(floatOf(move.provider)! + move.amount),
                  })
                : ''}
              .
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setMove(null)}>
                {t('console.catalogue.cancel')}
              </Button>
              <Button onClick={() => void fund(move)}>{t('console.catalogue.move', { amount: money(move.amount) })}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {stepUp.modal}
    </Card>
  );
}
