import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EPIN_DENOMINATIONS, EPIN_MAX_QUANTITY, EPIN_NETWORKS } from '../../../../src/modules/epins/inputs.js';
import { newIdempotencyKey, type GetOutput } from '../../api/client';
import { epinQueries } from '../../api/queries/epins';
import { walletQueries } from '../../api/queries/wallet';
import { formatDateTime, formatNaira } from '../../app/format';
import { Failure } from '../../components/Failure';
import { PinPad } from '../../components/PinPad';
import { Section } from '../../components/Section';
import * as ops from '../../api/operations';
import * as api from '../../api/calls';
import { epinOrderSchema } from '../../api/schemas';
import { useSchemaForm, type FieldHints } from '../../components/form';
import { StatusBadge } from '../../components/StatusBadge';

/**
 * Recharge cards (issue 45): a reseller buys a batch of airtime e-PINs with the transaction PIN, lists the batches,
 * downloads each as a print-ready PDF or as CSV, and marks cards sold.
 */
type Batch = GetOutput<typeof ops.listEpinBatches>['items'][number];
type Order = { network: (typeof EPIN_NETWORKS)[number]; denomination: number; quantity: number; businessName: string };

const ORDER_HINTS: FieldHints = { businessName: 'epins.businessNameHint' };

/** Saves a downloaded file under the service's name for it. */
function save(file: { blob: Blob; fileName: string }) {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function BuyBatch({ onBought }: { onBought(): void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(
    epinOrderSchema,
    { network: 'mtn' as Order['network'], denomination: '100', quantity: 10 as number | '', businessName: '' },
    ORDER_HINTS,
  );
  // The order being confirmed with the PIN: the form's values when Continue was pressed (a change asks again).
  const [order, setOrder] = useState<Order | null>(null);
  const reviewing =
    order !== null &&
    order.network === form.values.network &&
    String(order.denomination) === form.values.denomination &&
    order.quantity === form.values.quantity &&
    order.businessName === form.values.businessName.trim();
  const [pin, setPin] = useState('');
  const key = useRef(newIdempotencyKey());
  const buy = useMutation({
    mutationFn: ({ order, pin: p }: { order: Order; pin: string }) =>
      api.buyEpins(
        {
          network: order.network,
          denomination: order.denomination,
          quantity: order.quantity,
          ...(order.businessName.trim() ? { businessName: order.businessName.trim() } : {}),
          pin: p,
        },
        { idempotencyKey: key.current },
      ),
    onSuccess: () => (setOrder(null), (key.current = newIdempotencyKey()), onBought()),
    onSettled: () => setPin(''),
  });
  return (
    <Paper p="sm" withBorder>
      <form
        aria-label={t('epins.buy')}
        noValidate
        onSubmit={form.onSubmit((v) =>
          setOrder({
            network: v.network,
            denomination: Number(v.denomination),
            quantity: Number(v.quantity),
            businessName: v.businessName.trim(),
          }),
        )}
      >
        <Stack gap="xs">
          <Title order={3}>{t('epins.buy')}</Title>
          <Failure error={buy.error} />
          <NativeSelect
            label={t('epins.network')}
            {...form.getInputProps('network')}
            data={EPIN_NETWORKS.map((n) => ({ value: n, label: n.toUpperCase() }))}
          />
          <NativeSelect
            label={t('epins.denomination')}
            {...form.getInputProps('denomination')}
            data={EPIN_DENOMINATIONS.map((d) => ({ value: String(d), label: formatNaira(d) }))}
          />
          <NumberInput
            label={t('epins.quantity')}
            min={1}
            max={EPIN_MAX_QUANTITY}
            allowDecimal={false}
            {...form.getInputProps('quantity')}
          />
          <TextInput label={t('epins.businessName')} maxLength={40} {...form.getInputProps('businessName')} />
          {!reviewing && <Button type="submit">{t('epins.continue')}</Button>}
        </Stack>
      </form>
      {reviewing && order && (
        <Stack gap="xs" mt="xs">
          <Text size="sm">
            {t('epins.pinFor', { quantity: order.quantity, network: order.network.toUpperCase(), value: formatNaira(order.denomination) })}
          </Text>
          <PinPad value={pin} onChange={setPin} onConfirm={(p) => buy.mutate({ order, pin: p })} busy={buy.isPending} focus />
        </Stack>
      )}
      {buy.data && (
        <Alert color={buy.data.batch.status === 'delivered' ? 'green' : 'yellow'} role="status" mt="xs">
          {t(`epins.status_${buy.data.batch.status}`)}: {t('epins.summary', summaryOf(buy.data.batch))}
        </Alert>
      )}
    </Paper>
  );
}

const summaryOf = (b: Batch) => ({
  delivered: b.delivered,
  quantity: b.quantity,
  value: formatNaira(b.denomination),
  sold: b.sold,
});

function Cards({ batch, onChanged }: { batch: Batch; onChanged(): void }) {
  const { t } = useTranslation();
  const cards = useQuery(epinQueries.batch(batch.id));
  const [chosen, setChosen] = useState<string[]>([]);
  const mark = useMutation({
    mutationFn: (serials: string[]) => api.markEpinsSold({ id: batch.id, serials, sold: true }, { idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => (setChosen([]), void cards.refetch(), onChanged()),
  });
  const list = cards.data?.cards ?? [];
  return (
    <Stack gap="xs">
      <Failure error={cards.error ?? mark.error} />
      <Table striped aria-label={t('epins.cardsOf', { id: batch.id })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('epins.sold')}</Table.Th>
            <Table.Th>{t('epins.serial')}</Table.Th>
            <Table.Th>{t('epins.pin')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((c) => (
            <Table.Tr key={c.serial}>
              <Table.Td>
                {c.soldAt ? (
                  <Badge color="gray">{t('epins.sold')}</Badge>
                ) : (
                  <Checkbox
                    aria-label={t('epins.selectCard', { serial: c.serial })}
                    checked={chosen.includes(c.serial)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setChosen((s) => (on ? [...s, c.serial] : s.filter((x) => x !== c.serial)));
                    }}
                  />
                )}
              </Table.Td>
              <Table.Td>{c.serial}</Table.Td>
              <Table.Td style={{ fontFamily: 'monospace' }}>{c.pin}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button size="xs" disabled={!chosen.length} loading={mark.isPending} onClick={() => mark.mutate(chosen)}>
        {t('epins.markSold', { count: chosen.length })}
      </Button>
    </Stack>
  );
}

function BatchItem({ batch, onChanged }: { batch: Batch; onChanged(): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const download = useMutation({
    mutationFn: (format: 'pdf' | 'csv') => api.downloadEpinBatch({ id: batch.id, format }),
    onSuccess: save,
  });
  const title = `${batch.network.toUpperCase()} ${formatNaira(batch.denomination)} × ${batch.quantity}`;
  return (
    <Paper p="xs" withBorder data-testid="epin-batch" aria-label={title} component="article">
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{title}</Text>
          <StatusBadge status={batch.status} label={t(`epins.status_${batch.status}`)} />
        </Group>
        <Text size="sm">{t('epins.summary', summaryOf(batch))}</Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(batch.createdAt)} · {t('epins.paid', { paid: formatNaira(batch.paid) })}
          {batch.refunded > 0 ? ` · ${t('epins.refunded', { amount: formatNaira(batch.refunded) })}` : ''}
        </Text>
        <Failure error={download.error} />
        {batch.delivered > 0 && (
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              onClick={() => download.mutate('pdf')}
              loading={download.isPending && download.variables === 'pdf'}
            >
              {t('epins.pdf')}
            </Button>
            <Button
              size="xs"
              variant="light"
              onClick={() => download.mutate('csv')}
              loading={download.isPending && download.variables === 'csv'}
            >
              {t('epins.csv')}
            </Button>
            <Button size="xs" variant="subtle" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
              {open ? t('epins.hideCards') : t('epins.showCards')}
            </Button>
          </Group>
        )}
        {open && <Cards batch={batch} onChanged={onChanged} />}
      </Stack>
    </Paper>
  );
}

export function RechargeCards() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const batches = useQuery(epinQueries.batches());
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: epinQueries.all() });
    void qc.invalidateQueries({ queryKey: walletQueries.all() });
  };
  return (
    <Section id="recharge-cards" title={t('epins.title')}>
      <Text>{t('epins.intro')}</Text>
      <BuyBatch onBought={refresh} />
      <Title order={3}>{t('epins.batches')}</Title>
      <Failure error={batches.error} />
      {batches.data?.length === 0 && <Text c="dimmed">{t('epins.none')}</Text>}
      {(batches.data ?? []).map((b) => (
        <BatchItem key={b.id} batch={b} onChanged={refresh} />
      ))}
    </Section>
  );
}
