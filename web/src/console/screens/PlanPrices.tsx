import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { post, type PostOutput } from '../../api/client';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { showServerIssues, useSchemaForm } from '../../components/form';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { money } from '../../app/format';
import * as ops from '../../api/operations';

type Service = 'data' | 'cable' | 'exam';
type Preview = PostOutput<typeof ops.adminPreviewPriceChange>;
const NETWORKS = ['mtn', 'airtel', 'glo', '9mobile'] as const;

// adminPreviewPriceChange / adminRequestPriceChange: a markup (flat naira, percent up to 100) or a plan's fixed price.
const priceSchema = z
  .object({
    level: z.string().min(1, 'Choose a level'),
    plan: z.string(),
    kind: z.enum(['flat', 'percent', 'fixed']),
    value: z.number().min(0).max(10_000_000),
    reason: z.string().trim().min(3, 'Say why (at least 3 characters)').max(500),
  })
  .refine((v) => v.kind !== 'percent' || v.value <= 100, { message: 'at most 100', path: ['value'] })
  .refine((v) => v.kind !== 'fixed' || v.plan !== '', { message: 'A fixed price is for one plan', path: ['plan'] });

/**
 * Issue 45: the catalogue as plans: wholesale, each price level's price and margin, a plan switched off or on, and a
 * level's price changed with a preview first; a price change waits for a second admin (Approvals).
 */
export function PlanPrices() {
  const [service, setService] = useState<Service>('data');
  const [network, setNetwork] = useState<string>('mtn');
  const [identifier, setIdentifier] = useState('dstv');
  const q = service === 'data' ? { service, network } : service === 'cable' ? { service, identifier } : { service };
  const list = useQuery(adminQueries.planPrices(q));
  const stepUp = useOperatorStepUp();
  const qc = useQueryClient();
  const can = useCan();
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const toggle = async (plan: string, enabled: boolean) => {
    setError(null);
    try {
      await stepUp.withGrant((grantToken) => post(ops.adminSetPlanEnabled, { service, plan, enabled }, grantToken ? { grantToken } : {}));
      setNotice(`${plan} is ${enabled ? 'on sale again' : 'switched off'}.`);
      await qc.invalidateQueries({ queryKey: [...adminQueries.all(), 'plan-prices'] });
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Card withBorder component="section" aria-labelledby="plan-prices">
      <Stack>
        <Title order={2} size="h4" id="plan-prices">
          Plans and price levels
        </Title>
        <Group align="end">
          <Select
            label="Plans of"
            data={[
              { value: 'data', label: 'Data' },
              { value: 'cable', label: 'Cable TV' },
              { value: 'exam', label: 'Exam PINs' },
            ]}
            value={service}
            allowDeselect={false}
            onChange={(v) => v && setService(v as Service)}
          />
          {service === 'data' && (
            <Select label="Network" data={[...NETWORKS]} value={network} allowDeselect={false} onChange={(v) => v && setNetwork(v)} />
          )}
          {service === 'cable' && (
            <TextInput label="Cable provider" value={identifier} onChange={(e) => setIdentifier(e.currentTarget.value)} />
          )}
        </Group>
        <Loaded query={list}>
          {(data) => (
            <>
              <DataTable
                caption={`${data.service} plans at provider ${data.provider.toUpperCase()}: wholesale, and each level's price (margin)`}
                rows={data.items}
                rowKey={(p) => p.plan}
                empty="No plans listed."
                columns={[
                  { header: 'Plan', cell: (p) => p.name },
                  { header: 'Wholesale', cell: (p) => money(p.wholesale) },
                  ...data.levels.map((l) => ({
                    header: l.name,
                    cell: (p: (typeof data.items)[number]) => {
                      const x = p.prices.find((y) => y.level === l.id);
                      return x ? `${money(x.price)} (${money(x.margin)})` : '—';
                    },
                  })),
                  {
                    header: 'On sale',
                    cell: (p) =>
                      !can('adminSetPlanEnabled') ? (
                        p.enabled ? (
                          'yes'
                        ) : (
                          'no'
                        )
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          color={p.enabled ? 'red' : 'green'}
                          aria-label={`${p.enabled ? 'Switch off' : 'Switch on'} ${p.name}`}
                          onClick={() => void toggle(p.plan, !p.enabled)}
                        >
                          {p.enabled ? 'Switch off' : 'Switch on'}
                        </Button>
                      ),
                  },
                ]}
              />
              {can('adminRequestPriceChange') && (
                <PriceChange
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
  const form = useSchemaForm(priceSchema, { level: 'agent', plan: '', kind: 'fixed', value: 0 as number | '', reason: '' });
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const change = () => {
    const v = form.getValues();
    return { level: v.level, service: p.service, kind: v.kind, value: Number(v.value), ...(v.plan ? { plan: v.plan } : {}) };
  };
  return (
    <form
      aria-label="Change a level's price"
      onSubmit={form.onSubmit(async (v) => {
        setError(null);
        try {
          const r = await p.withGrant((grantToken) =>
            post(ops.adminRequestPriceChange, { ...change(), reason: v.reason }, grantToken ? { grantToken } : {}),
          );
          setPreview(null);
          p.onAsked(r.status === 'pending' ? 'Price change asked for: it waits for a second admin in Approvals.' : 'Price changed.');
        } catch (err) {
          if (!showServerIssues(form, err)) setError(err);
        }
      })}
    >
      <Stack>
        <Title order={3} size="h5">
          Change a level&apos;s price
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} style={{ alignItems: 'end' }}>
          <Select
            label="Level"
            data={p.levels.map((l) => ({ value: l.id, label: l.name }))}
            allowDeselect={false}
            {...form.getInputProps('level')}
          />
          <Select
            label="Plan"
            data={[{ value: '', label: 'Every plan' }, ...p.plans]}
            allowDeselect={false}
            {...form.getInputProps('plan')}
          />
          <Select
            label="Price"
            data={[
              { value: 'fixed', label: 'Fixed price (naira)' },
              { value: 'flat', label: 'Markup (naira)' },
              { value: 'percent', label: 'Markup (percent)' },
            ]}
            allowDeselect={false}
            {...form.getInputProps('kind')}
          />
          <NumberInput label="Value" min={0} decimalScale={2} {...form.getInputProps('value')} />
          <TextInput label="Reason" {...form.getInputProps('reason')} />
        </SimpleGrid>
        <Group>
          <Button
            variant="default"
            onClick={async () => {
              setError(null);
              try {
                // A cable preview lists one cable provider's plans: the one shown above.
                setPreview(
                  await post(ops.adminPreviewPriceChange, {
                    ...change(),
                    ...(p.identifier ? { identifier: p.identifier } : {}),
                  }),
                );
              } catch (err) {
                if (!showServerIssues(form, err)) setError(err);
              }
            }}
          >
            Preview
          </Button>
          <Button type="submit">Ask for approval</Button>
        </Group>
        {preview && <PreviewTable preview={preview} />}
        <Failure error={error} />
      </Stack>
    </form>
  );
}

function PreviewTable({ preview }: { preview: Preview }) {
  if (!preview.changes.length) return <Text size="sm">Nothing would change.</Text>;
  return (
    <Table aria-label="What the change would change">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Plan</Table.Th>
          <Table.Th>Wholesale</Table.Th>
          <Table.Th>Now</Table.Th>
          <Table.Th>After</Table.Th>
          <Table.Th>Margin after</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {preview.changes.map((c) => (
          <Table.Tr key={c.plan ?? c.name}>
            <Table.Td>{c.name}</Table.Td>
            <Table.Td>{money(c.wholesale)}</Table.Td>
            <Table.Td>{money(c.before)}</Table.Td>
            <Table.Td>{money(c.after)}</Table.Td>
            <Table.Td>{money(c.margin)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
