import { Alert, Button, Group, Stack, Switch, Table, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { z } from 'zod';
import { AMOUNT_BOUNDS, airtimeSchema } from '../../api/buy-schemas';
import { AmountInput } from '../../components/AmountInput';
import { amountProps, showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { errorMessage } from '../../app/errors';
import { formatNaira } from '../../app/format';
import { buyOnce } from './buy-once';
import { detectNetwork, NETWORK_NAMES, parseNumbers } from '../../app/network';
import { PinPad } from '../../components/PinPad';
import type { PurchaseTx } from './purchase-state';
import { walletQueries } from '../../api/queries/wallet';
import { PhoneBuy } from './PhoneBuy';
import { OverDailyLimit } from './DailyLimit';
import * as api from '../../api/calls';
import { StatusBadge } from '../../components/StatusBadge';
import { levelLines, type PricedAt } from './price-level';

type Line = { phone: string; network: string | null; result?: PurchaseTx; error?: string; checking?: boolean };

/** At least one number the list reads, and buyAirtime's amount for each. */
const bulkSchema = z.object({
  numbers: z.string().refine((v) => parseNumbers(v).valid.length > 0),
  amount: airtimeSchema.shape.amount,
});
const HINTS: FieldHints = { numbers: 'buy.phoneInvalid' };

/** Airtime for several numbers: one list (typed or pasted column), one PIN, one summary with each result. */
export function BulkBuy() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useSchemaForm(bulkSchema, { numbers: '', amount: '' as number | '' }, HINTS);
  const { numbers: text, amount } = form.getValues();
  const [price, setPrice] = useState<number | null>(null);
  // The price level the quote named (issue 45): other than the default one, said under the price.
  const [level, setLevel] = useState<PricedAt | null>(null);
  const [pin, setPin] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { valid, invalid } = parseNumbers(text);
  // The numbers still to buy for, against what the KYC tier's daily limit leaves today: over it, no PIN pad.
  const limits = useQuery(walletQueries.limits());
  const due = price === null ? 0 : price * lines.filter((l) => !l.result).length;
  const overLimit = limits.data !== undefined && due > limits.data.leftToday;

  const review = form.onSubmit(async () => {
    setError(null);
    try {
      // Each number's total at the buyer's price level, as each purchase charges it.
      const q = await api.quotePurchase({ service: 'airtime', amount: amount as number });
      setPrice(q.total);
      setLevel(q.level);
      setLines(valid.map((phone) => ({ phone, network: detectNetwork(phone) })));
    } catch (err) {
      if (!showServerIssues(form, err, HINTS)) setError(errorMessage(err));
    }
  });

  async function run(p: string) {
    setBusy(true);
    const update = (i: number, patch: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
    for (const [i, line] of lines.entries()) {
      if (line.result) continue;
      if (!line.network) {
        update(i, { error: t('buy.notDetected') });
        continue;
      }
      try {
        const tx = await buyOnce(
          { service: 'airtime', network: line.network, phone: line.phone, amount: amount as number },
          p,
          newIdempotencyKey(),
          () => update(i, { checking: true }),
        );
        update(i, { result: tx, checking: false, error: undefined });
      } catch (err) {
        update(i, { error: errorMessage(err), checking: false });
      }
    }
    setPin('');
    setBusy(false);
    void qc.invalidateQueries({ queryKey: walletQueries.all() });
  }

  return (
    <Stack>
      <Textarea label={t('buy.numbers')} autosize minRows={3} {...form.getInputProps('numbers')} disabled={busy || price !== null} />
      {invalid.length > 0 && <Alert color="yellow">{invalid.join(', ')}</Alert>}
      <AmountInput
        label={t('buy.amount')}
        min={AMOUNT_BOUNDS.airtime[0]}
        {...amountProps(form, 'amount')}
        disabled={busy || price !== null}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {price === null ? (
        <Button onClick={() => review()}>{t('buy.review')}</Button>
      ) : (
        <>
          <Text fw={600}>
            {t('buy.price', { amount: `${valid.length} × ${formatNaira(price)} = ${formatNaira(valid.length * price)}` })}
          </Text>
          {levelLines(level, t).map(([k, v]) => (
            <Text key={k} size="sm" data-testid="price-level">
              {k}: {v}
            </Text>
          ))}
          <Table aria-label={t('buy.summary')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('buy.phone')}</Table.Th>
                <Table.Th>{t('buy.network')}</Table.Th>
                <Table.Th>{t('tx.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((l) => (
                <Table.Tr key={l.phone}>
                  <Table.Td>{l.phone}</Table.Td>
                  <Table.Td>{l.network ? NETWORK_NAMES[l.network as keyof typeof NETWORK_NAMES] : '—'}</Table.Td>
                  <Table.Td>
                    {l.result ? (
                      <Link to="/buy/result/$id" params={{ id: l.result.id }}>
                        <StatusBadge status={l.result.status} label={t(`result.${l.result.status}`)} />
                      </Link>
                    ) : l.checking ? (
                      t('result.checking')
                    ) : (
                      (l.error ?? '')
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {lines.some((l) => !l.result) &&
            (overLimit && !busy ? (
              <OverDailyLimit limits={limits.data!} price={due} />
            ) : (
              <PinPad value={pin} onChange={setPin} onConfirm={(p) => void run(p)} busy={busy} focus />
            ))}
          <Group>
            <Button variant="subtle" onClick={() => (setPrice(null), setLines([]))} disabled={busy}>
              {t('buy.another')}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The airtime tab (kinds/airtime): one number (PhoneBuy), or several at once. */
export function AirtimeBuy() {
  const { t } = useTranslation();
  const [bulk, setBulk] = useState(false);
  return (
    <>
      <Switch label={t('buy.several')} checked={bulk} onChange={(e) => setBulk(e.currentTarget.checked)} />
      {bulk ? <BulkBuy /> : <PhoneBuy service="airtime" />}
    </>
  );
}
