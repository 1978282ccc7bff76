import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type PostOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import i18next from 'i18next';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money } from '../../app/format';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';

type Service = 'data' | 'cable' | 'exam' | 'epin';
type Preview = PostOutput<typeof ops.adminPreviewPriceChange>;
const NETWORKS = ['mtn', 'airtel', 'glo', '9mobile'] as const;

// adminPreviewPriceChange / adminRequestPriceChange: a markup (flat naira, percent up to 100) or a plan's fixed price;
// recharge cards (epin): a level's discount off the face value, at most 50 %, for every card.
const priceSchema = z
  .object({
    level: z.string().min(1),
    plan: z.string(),
    kind: z.enum(['flat', 'percent', 'fixed', 'discount']),
    value: z.number().min(0).max(10_000_000),
    reason: z.string().trim().min(3).max(500),
  })
  .refine((v) => v.kind !== 'percent' || v.value <= 100, { path: ['value'] })
  .refine((v) => v.kind !== 'discount' || v.value <= 50, { path: ['value'] })
  .refine((v) => v.kind !== 'fixed' || v.plan !== '', { path: ['plan'] });
// The rules across fields in words: a percent is at most 100 (a card's discount 50), a fixed price names its plan.
const priceHints = (service: Service): FieldHints => ({
  value: (issue) => (issue.code === 'custom' ? i18next.t('form.atMost', { maximum: service === 'epin' ? '50' : '100' }) : undefined),
  plan: (issue) => (issue.code === 'custom' ? i18next.t('console.planPrices.fixedOnePlan') : undefined),
});

/**
 * Issue 45: the catalogue as plans: wholesale, each price level's price and margin, a plan switched off or on, and a
 * level's price changed with a preview first; a price change waits for a second admin (Approvals). Recharge cards
 * (e-PINs) are listed the same way: each card at the seller's price, the levels that buy cards with their price, and a
 * level's discount off the face value changed like a price (never below the seller's price).
 */
export function PlanPrices() {
  const [service, setService] = useState<Service>('data');
  const [network, setNetwork] = useState<string>('mtn');
  const { t } = useTranslation();
  const [identifier, setIdentifier] = useState('dstv');
  const q = service === 'data' ? { service, network } : service === 'cable' ? { service, identifier } : { service };
  const cards = service === 'epin';
  const list = useQuery(adminQueries.planPrices(q));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const toggle = async (plan: string, enabled: boolean) => {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => api.adminSetPlanEnabled({ service, plan, enabled }, grantToken ? { grantToken } : {}));
      setNotice(t(enabled ? 'console.planPrices.onSaleAgain' : 'console.planPrices.switchedOff', { plan }));
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'plan-prices'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Card withBorder component="section" aria-labelledby="plan-prices">
      <Stack>
        <Title order={2} size="h4" id="plan-prices">
          {t('console.planPrices.title')}
        </Title>
        <Group align="end">
          <Select
            label={t('console.planPrices.plansOf')}
            data={[
              { value: 'data', label: t('console.planPrices.services.data') },
              { value: 'cable', label: t('console.planPrices.services.cable') },
              { value: 'exam', label: t('console.planPrices.services.exam') },
              { value: 'epin', label: t('console.planPrices.services.epin') },
            ]}
            value={service}
            allowDeselect={false}
            onChange={(v) => v && setService(v as Service)}
          />
          {service === 'data' && (
            <Select
              label={t('console.planPrices.network')}
              data={[...NETWORKS]}
              value={network}
              allowDeselect={false}
              onChange={(v) => v && setNetwork(v)}
            />
          )}
          {service === 'cable' && (
            <TextInput
              label={t('console.planPrices.cableProvider')}
              value={identifier}
              onChange={(e) => setIdentifier(e.currentTarget.value)}
            />
          )}
        </Group>
        <Loaded query={list}>
          {(data) => (
            <>
              <DataTable
                caption={
                  cards
                    ? t('console.planPrices.captionEpin')
                    : t('console.planPrices.caption', { service: data.service, provider: data.provider.toUpperCase() })
                }
                rows={data.items}
                rowKey={(p) => p.plan}
                empty={t('console.planPrices.empty')}
                columns={[
                  { header: t('console.planPrices.plan'), cell: (p) => p.name },
                  { header: t('console.planPrices.wholesale'), cell: (p) => money(p.wholesale) },
                  ...data.levels.map((l) => ({
                    header: l.name,
                    cell: (p: (typeof data.items)[number]) => {
                      const x = p.prices.find((y) => y.level === l.id);
                      return x ? `${money(x.price)} (${money(x.margin)})` : '—';
                    },
                  })),
                  // Recharge cards are on sale while the seller prices them: nothing to switch.
                  ...(cards
                    ? []
                    : [
                        {
                          header: t('console.planPrices.onSale'),
                          cell: (p: (typeof data.items)[number]) =>
                            !can('adminSetPlanEnabled') ? (
                              p.enabled ? (
                                t('console.planPrices.yes')
                              ) : (
                                t('console.planPrices.no')
                              )
                            ) : (
                              <Button
                                size="xs"
                                variant="light"
                                color={p.enabled ? 'red' : 'green'}
                                aria-label={t(p.enabled ? 'console.planPrices.switchOffPlan' : 'console.planPrices.switchOnPlan', {
                                  name: p.name,
                                })}
                                onClick={() => void toggle(p.plan, !p.enabled)}
                              >
                                {t(p.enabled ? 'console.planPrices.switchOff' : 'console.planPrices.switchOn')}
                              </Button>
                            ),
                        },
                      ]),
                ]}
              />
              {can('adminRequestPriceChange') && (
                <PriceChange
                  key={service}
                  service={service}
                  identifier={service === 'cable' ? identifier : undefined}
                  levels={data.levels}
                  plans={data.items.map((p) => ({ value: p.plan, label: p.name }))}
                  onAsked={setNotice}
                  withGrant={stepUp.withGrant}
                />
              )}
            </>
          )}
        </Loaded>
        <Failure error={error} />
        {notice && (
          <Alert color="green" role="status">
            {notice}
          </Alert>
        )}
      </Stack>
      {stepUp.modal}
    </Card>
  );
}

function PriceChange(p: {
  service: Service;
  identifier?: string;
  levels: { id: string; name: string }[];
  plans: { value: string; label: string }[];
  onAsked: (notice: string) => void;
  withGrant: ReturnType<typeof useOperatorStepUp>['withGrant'];
}) {
  const { t } = useTranslation();
  const cards = p.service === 'epin';
  const hints = priceHints(p.service);
  const form = useSchemaForm(
    priceSchema,
    { level: 'agent', plan: '', kind: cards ? 'discount' : 'fixed', value: 0 as number | '', reason: '' },
    hints,
  );
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const change = () => {
    const v = form.getValues();
    return { level: v.level, service: p.service, kind: v.kind, value: Number(v.value), ...(v.plan ? { plan: v.plan } : {}) };
  };
  return (
    <form
      noValidate
      aria-label={t('console.planPrices.change')}
      onSubmit={form.onSubmit(async (v) => {
        setError(null);
        try {
          const r = await p.withGrant((grantToken) =>
            api.adminRequestPriceChange({ ...change(), reason: v.reason }, grantToken ? { grantToken } : {}),
          );
          setPreview(null);
          p.onAsked(t(r.status === 'pending' ? 'console.planPrices.asked' : 'console.planPrices.changed'));
        } catch (err) {
          if (!showServerIssues(form, err, hints)) setError(err);
        }
      })}
    >
      <Stack>
        <Title order={3} size="h5">
          {t('console.planPrices.change')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} style={{ alignItems: 'end' }}>
          <Select
            label={t('console.planPrices.level')}
            data={p.levels.map((l) => ({ value: l.id, label: l.name }))}
            allowDeselect={false}
            {...form.getInputProps('level')}
          />
          {!cards && (
            <Select
              label={t('console.planPrices.plan')}
              data={[{ value: '', label: t('console.planPrices.everyPlan') }, ...p.plans]}
              allowDeselect={false}
              {...form.getInputProps('plan')}
            />
          )}
          <Select
            label={t('console.planPrices.price')}
            data={
              cards
                ? [{ value: 'discount', label: t('console.planPrices.kinds.discount') }]
                : [
                    { value: 'fixed', label: t('console.planPrices.kinds.fixed') },
                    { value: 'flat', label: t('console.planPrices.kinds.flat') },
                    { value: 'percent', label: t('console.planPrices.kinds.percent') },
                  ]
            }
            allowDeselect={false}
            {...form.getInputProps('kind')}
          />
          <NumberInput label={t('console.planPrices.value')} min={0} decimalScale={2} {...form.getInputProps('value')} />
          <TextInput label={t('console.planPrices.reason')} {...form.getInputProps('reason')} />
        </SimpleGrid>
        <Group>
          <Button
            variant="default"
            onClick={async () => {
              setError(null);
              try {
                // A cable preview lists one cable provider's plans: the one shown above.
                setPreview(
                  await api.adminPreviewPriceChange({
                    ...change(),
                    ...(p.identifier ? { identifier: p.identifier } : {}),
                  }),
                );
              } catch (err) {
                if (!showServerIssues(form, err, hints)) setError(err);
              }
            }}
          >
            {t('console.planPrices.preview')}
          </Button>
          <Button type="submit">{t('console.planPrices.askApproval')}</Button>
        </Group>
        {preview && <PreviewTable preview={preview} />}
        <Failure error={error} />
      </Stack>
    </form>
  );
}

function PreviewTable({ preview }: { preview: Preview }) {
  const { t } = useTranslation();
  if (!preview.changes.length) return <Text size="sm">{t('console.planPrices.nothing')}</Text>;
  return (
    <Table aria-label={t('console.planPrices.previewTable')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('console.planPrices.plan')}</Table.Th>
          <Table.Th>{t('console.planPrices.wholesale')}</Table.Th>
          <Table.Th>{t('console.planPrices.now')}</Table.Th>
          <Table.Th>{t('console.planPrices.after')}</Table.Th>
          <Table.Th>{t('console.planPrices.marginAfter')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {preview.changes.map((c) => (
          <Table.Tr key={c.plan ?? c.name}>
            <Table.Td>{c.name}</Table.Td>
            <Table.Td>{money(c.wholesale)}</Table.Td>
            <Table.Td>{c.before === null ? t('console.planPrices.notSold') : money(c.before)}</Table.Td>
            <Table.Td>{money(c.after)}</Table.Td>
            <Table.Td>{money(c.margin)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
