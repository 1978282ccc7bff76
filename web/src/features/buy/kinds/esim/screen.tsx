import {
  Alert,
  Button,
  Checkbox,
  CopyButton,
  Image,
  NativeSelect,
  Progress,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { esimQueries } from './queries';
import { esimSchema, esimTopUpSchema } from './schemas';
import { takeDraft } from '../../../../app/draft';
import { errorMessage } from '../../../../app/errors';
import { countryName } from '../../../../app/country-names';
import { formatDateTime, formatNaira } from '../../../../app/format';
import type { KindResultProps } from '../../../../app/kinds';
import { useSchemaForm, type FieldHints } from '../../../../components/form';
import type { KindPurchase } from '../../buy-once';
import { ConfirmPurchase } from '../../ConfirmPurchase';
import { useKeepDraft } from '../../use-keep-draft';
import * as ops from '../../../../api/operations';

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const HINTS: FieldHints = {
  destination: 'esim.destinationRequired',
  plan_id: 'esim.planRequired',
  phone: 'buy.phoneInvalid',
  esim_id: 'esim.esimRequired',
};

type Ready = { request: KindPurchase; price: number; lines: [string, string][]; reprice: () => Promise<number | undefined> };

/** Data as people read it: 1 GB, 500 MB. */
const dataSize = (mb: number) => (mb >= 1024 ? `${+(mb / 1024).toFixed(1)} GB` : `${mb} MB`);

/**
 * Travel eSIMs: a new eSIM (destination, plan, phone) or a top-up of one of the customer's eSIMs (its destination's
 * plans), then the price, the PIN pad and the result screen, which shows the eSIM's QR code.
 */
export function Screen() {
  const { t } = useTranslation();
  const [draft] = useState(() => takeDraft('esim') ?? {});
  const [mode, setMode] = useState<'new' | 'topup'>(draft.esim_id ? 'topup' : 'new');
  return (
    <Stack>
      <SegmentedControl
        aria-label={t('esim.mode')}
        value={mode}
        onChange={(v) => setMode(v as 'new' | 'topup')}
        data={[
          { value: 'new', label: t('esim.new') },
          { value: 'topup', label: t('esim.topUp') },
        ]}
      />
      {mode === 'new' ? <NewEsim draft={draft} /> : <TopUpEsim draft={draft} />}
    </Stack>
  );
}

function usePlans(destination: string) {
  const qc = useQueryClient();
  const plans = useQuery(esimQueries.esimPlans(destination));
  const reprice = (planId: string) => async () =>
    (await qc.fetchQuery({ ...esimQueries.esimPlans(destination), staleTime: 0 })).items.find((p) => p.plan_id === planId)?.price;
  return { plans, reprice };
}

function PlanSelect({ destination, form }: { destination: string; form: { getInputProps(path: string): object } }) {
  const { t } = useTranslation();
  const { plans } = usePlans(destination);
  return (
    <NativeSelect
      label={t('esim.plan')}
      {...form.getInputProps('plan_id')}
      data={[
        { value: '', label: '—' },
        ...(plans.data?.items ?? []).map((p) => ({
          value: p.plan_id,
          label: `${dataSize(p.dataMb)} · ${t('esim.days', { count: p.validityDays })} · ${formatNaira(p.price)}`,
        })),
      ]}
      required
    />
  );
}

const REGIONS = { europe: 'esim.region_europe', africa: 'esim.region_africa', global: 'esim.region_global' } as const;

/** A destination in the reader's language: a country by our names or the browser's, a region from the strings (issue 43). */
function usePlaceName() {
  const { t } = useTranslation();
  return (d: { id: string; name: string }): string => {
    const key = REGIONS[d.id as keyof typeof REGIONS] as (typeof REGIONS)[keyof typeof REGIONS] | undefined;
    if (!key) return countryName(d.id, d.name);
    return t(key, { count: Number(/\((\d+)/.exec(d.name)?.[1] ?? 0) });
  };
}

function NewEsim({ draft }: { draft: Record<string, unknown> }) {
  const { t } = useTranslation();
  const destinations = useQuery(esimQueries.esimDestinations());
  const placeName = usePlaceName();
  const form = useSchemaForm(
    esimSchema,
    { destination: text(draft.destination), plan_id: text(draft.plan_id), phone: text(draft.phone) },
    HINTS,
  );
  const values = form.getValues();
  useKeepDraft('esim', values);
  const { plans, reprice } = usePlans(values.destination);
  const [ready, setReady] = useState<Ready | null>(null);
  // Issue 43: an eSIM installs on one phone only, so the customer says the phone takes one before the price and PIN.
  const [compatible, setCompatible] = useState(false);
  const [compatibleMissing, setCompatibleMissing] = useState(false);
  const review = form.onSubmit((v) => {
    const c = esimSchema.safeParse(v);
    if (!c.success) return;
    if (!compatible) return setCompatibleMissing(true);
    const plan = plans.data?.items.find((p) => p.plan_id === c.data.plan_id);
    if (!plan) return form.setFieldError('plan_id', t('esim.planRequired'));
    const found = destinations.data?.items.find((d) => d.id === c.data.destination);
    const where = found ? placeName(found) : c.data.destination;
    setReady({
      request: {
        service: 'esim',
        operation: ops.buyEsim,
        fields: { destination: c.data.destination, plan_id: plan.plan_id, phone: c.data.phone },
        amount: plan.price,
      },
      price: plan.price,
      lines: [
        [t('esim.destination'), where],
        [t('esim.plan'), `${dataSize(plan.dataMb)} · ${t('esim.days', { count: plan.validityDays })}`],
        [t('buy.phone'), c.data.phone],
        [t('buy.total'), formatNaira(plan.price)],
      ],
      reprice: reprice(plan.plan_id),
    });
  });
  return (
    <Stack>
      <form onSubmit={review} noValidate>
        <Stack>
          <fieldset disabled={ready !== null} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack>
              <NativeSelect
                label={t('esim.destination')}
                {...form.getInputProps('destination')}
                onChange={(e) => {
                  form.setFieldValue('destination', e.currentTarget.value);
                  form.setFieldValue('plan_id', '');
                }}
                data={[{ value: '', label: '—' }, ...(destinations.data?.items ?? []).map((d) => ({ value: d.id, label: placeName(d) }))]}
                required
              />
              {values.destination && <PlanSelect destination={values.destination} form={form} />}
              <TextInput label={t('buy.phone')} description={t('esim.phoneHelp')} type="tel" {...form.getInputProps('phone')} required />
              <Checkbox
                label={t('esim.compatible')}
                description={t('esim.compatibleHelp')}
                checked={compatible}
                onChange={(e) => (setCompatible(e.currentTarget.checked), setCompatibleMissing(false))}
              />
              {compatibleMissing && (
                <Alert color="red" role="alert">
                  {t('esim.compatibleRequired')}
                </Alert>
              )}
            </Stack>
          </fieldset>
          {destinations.error && (
            <Alert color="red" role="alert">
              {errorMessage(destinations.error)}
            </Alert>
          )}
          {!ready && <Button type="submit">{t('buy.review')}</Button>}
        </Stack>
      </form>
      {ready && <ConfirmPurchase {...ready} onCancel={() => setReady(null)} />}
    </Stack>
  );
}

function TopUpEsim({ draft }: { draft: Record<string, unknown> }) {
  const { t } = useTranslation();
  const mine = useQuery(esimQueries.myEsims());
  const form = useSchemaForm(esimTopUpSchema, { esim_id: text(draft.esim_id), plan_id: text(draft.plan_id) }, HINTS);
  const values = form.getValues();
  const esims = (mine.data?.items ?? []).filter((x) => x.esim?.iccid && !x.esim.topup);
  const chosen = esims.find((x) => x.id === values.esim_id);
  const destination = chosen?.esim?.destination ?? '';
  const { plans, reprice } = usePlans(destination);
  const [ready, setReady] = useState<Ready | null>(null);
  const review = form.onSubmit((v) => {
    const c = esimTopUpSchema.safeParse(v);
    if (!c.success) return;
    const plan = plans.data?.items.find((p) => p.plan_id === c.data.plan_id);
    if (!plan) return form.setFieldError('plan_id', t('esim.planRequired'));
    setReady({
      request: {
        service: 'esim',
        operation: ops.topUpEsim,
        fields: { esim_id: c.data.esim_id, plan_id: plan.plan_id },
        amount: plan.price,
      },
      price: plan.price,
      lines: [
        [t('esim.iccid'), chosen?.esim?.iccid ?? ''],
        [t('esim.plan'), `${dataSize(plan.dataMb)} · ${t('esim.days', { count: plan.validityDays })}`],
        [t('buy.total'), formatNaira(plan.price)],
      ],
      reprice: reprice(plan.plan_id),
    });
  });
  if (mine.data && esims.length === 0) return <Alert color="blue">{t('esim.noneYet')}</Alert>;
  return (
    <Stack>
      <form onSubmit={review} noValidate>
        <Stack>
          <fieldset disabled={ready !== null} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack>
              <NativeSelect
                label={t('esim.which')}
                {...form.getInputProps('esim_id')}
                data={[
                  { value: '', label: '—' },
                  ...esims.map((x) => ({
                    value: x.id,
                    label: `${x.esim!.destination.toUpperCase()} · ${dataSize(x.esim!.dataMb)} · …${x.esim!.iccid.slice(-6)}`,
                  })),
                ]}
                required
              />
              {destination && <PlanSelect destination={destination} form={form} />}
            </Stack>
          </fieldset>
          {!ready && <Button type="submit">{t('buy.review')}</Button>}
        </Stack>
      </form>
      {ready && <ConfirmPurchase {...ready} onCancel={() => setReady(null)} />}
    </Stack>
  );
}

/** The result screen's part for an eSIM, once delivered. */
export function Result({ tx }: KindResultProps) {
  return tx.status === 'success' && tx.esim ? <EsimResult id={tx.id} esim={tx.esim} /> : null;
}

/** What an eSIM transaction shows once delivered: the QR code to scan, the activation code, the ICCID and usage. */
interface EsimView {
  iccid: string;
  activationCode?: string;
  smdpAddress?: string;
  matchingId?: string;
  destination?: string;
  dataMb?: number;
  validityDays?: number;
  topup?: boolean;
}

function EsimResult({ id, esim }: { id: string; esim: EsimView }) {
  const { t } = useTranslation();
  const qr = useQuery(esimQueries.esimQr(esim.topup ? '' : (esim.activationCode ?? '')));
  const usage = useQuery(esimQueries.esimUsage(id));
  return (
    <Stack gap="xs" data-testid="esim">
      {!esim.topup && esim.activationCode && (
        <>
          <Text fw={600}>{t('esim.scan')}</Text>
          {qr.data && <Image src={qr.data} alt={t('esim.qrAlt')} w={240} h={240} data-testid="esim-qr" />}
          <Text size="sm">{t('esim.manual')}</Text>
          <Text className="token-box" data-testid="esim-activation">
            {esim.activationCode}
          </Text>
          <CopyButton value={esim.activationCode}>
            {({ copied, copy }) => (
              <Button onClick={copy} variant="light">
                {copied ? t('app.copied') : t('esim.copyCode')}
              </Button>
            )}
          </CopyButton>
        </>
      )}
      <Text size="sm" data-testid="esim-iccid">
        {t('esim.iccid')}: {esim.iccid}
      </Text>
      {!esim.topup && (
        <Button variant="subtle" onClick={() => void usage.refetch()} loading={usage.isFetching}>
          {t('esim.checkUsage')}
        </Button>
      )}
      {usage.error && (
        <Alert color="red" role="alert">
          {errorMessage(usage.error)}
        </Alert>
      )}
      {usage.data && (
        <Stack gap={4} data-testid="esim-usage">
          <Text size="sm">
            {t(`esim.status.${usage.data.status}`)} ·{' '}
            {t('esim.used', { used: dataSize(usage.data.dataUsedMb), total: dataSize(usage.data.dataTotalMb) })}
          </Text>
          <Progress value={usage.data.dataTotalMb ? (100 * usage.data.dataUsedMb) / usage.data.dataTotalMb : 0} aria-hidden />
          <Text size="sm">{t('esim.expires', { date: formatDateTime(usage.data.expiresAt) })}</Text>
        </Stack>
      )}
    </Stack>
  );
}
