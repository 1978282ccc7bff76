import { Alert, Button, NativeSelect, NumberInput, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { socialQueries } from './queries';
import { socialSchema } from './schemas';
import { takeDraft } from '../../../../app/draft';
import { errorMessage } from '../../../../app/errors';
import { formatNaira } from '../../../../app/format';
import type { KindResultProps } from '../../../../app/kinds';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../../../components/form';
import type { KindPurchase } from '../../buy-once';
import { ConfirmPurchase } from '../../ConfirmPurchase';
import type { PricedAt } from '../../price-level';
import { useKeepDraft } from '../../use-keep-draft';
import * as ops from '../../../../api/operations';
import * as api from '../../../../api/calls';

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const HINTS: FieldHints = { service_id: 'social.serviceRequired', link: 'social.linkInvalid' };

type Ready = {
  request: KindPurchase;
  price: number;
  lines: [string, string][];
  level: PricedAt;
  reprice: () => Promise<number | undefined>;
};

/** The price of a quantity, as the service prices it (quotePurchase) at the buyer's level: what the PIN pad confirms. */
const quoteOf = (service_id: string, quantity: number) => api.quotePurchase({ service: 'social', plan_id: service_id, quantity });

/** Social services: a service (platform and kind, price per 1,000, bounds), the link and the quantity, then the PIN. */
export function Screen() {
  const { t } = useTranslation();
  const services = useQuery(socialQueries.socialServices());
  const [draft] = useState(() => takeDraft('social') ?? {});
  const form = useSchemaForm(
    socialSchema,
    {
      service_id: text(draft.service_id),
      link: text(draft.link),
      quantity: typeof draft.quantity === 'number' ? draft.quantity : ('' as number | ''),
    },
    HINTS,
  );
  const values = form.getValues();
  useKeepDraft('social', values);
  const service = services.data?.items.find((s) => s.service_id === values.service_id);
  const [ready, setReady] = useState<Ready | null>(null);
  const [underFields, setUnderFields] = useState(false);
  const priced = useMutation({
    mutationFn: async (c: { service_id: string; link: string; quantity: number }) => ({
      c,
      quote: await quoteOf(c.service_id, c.quantity),
    }),
    onSuccess: ({ c, quote: { total, level } }) =>
      setReady({
        request: { service: 'social', operation: ops.orderSocial, fields: c, amount: total },
        price: total,
        lines: [
          [t('social.service'), service?.name ?? c.service_id],
          [t('social.link'), c.link],
          [t('social.quantity'), c.quantity.toLocaleString('en-NG')],
          [t('buy.total'), formatNaira(total)],
        ],
        level,
        reprice: async () => (await quoteOf(c.service_id, c.quantity)).total,
      }),
    onError: (err) => setUnderFields(showServerIssues(form, err, HINTS)),
  });
  const review = form.onSubmit((v) => {
    const c = socialSchema.safeParse(v);
    if (!c.success) return;
    if (!service) return form.setFieldError('service_id', t('social.serviceRequired'));
    if (c.data.quantity < service.min || c.data.quantity > service.max)
      return form.setFieldError(
        'quantity',
        t('social.quantityRange', { min: service.min.toLocaleString('en-NG'), max: service.max.toLocaleString('en-NG') }),
      );
    setUnderFields(false);
    priced.mutate(c.data);
  });
  return (
    <Stack>
      <form onSubmit={review} noValidate>
        <Stack>
          <fieldset disabled={ready !== null} style={{ border: 0, padding: 0, margin: 0 }}>
            <Stack>
              <NativeSelect
                label={t('social.service')}
                {...form.getInputProps('service_id')}
                data={[
                  { value: '', label: '—' },
                  ...(services.data?.items ?? []).map((s) => ({
                    value: s.service_id,
                    label: `${s.name} · ${t('social.per1000', { amount: formatNaira(s.pricePer1000) })}`,
                  })),
                ]}
                required
              />
              <TextInput label={t('social.link')} description={t('social.linkHelp')} type="url" {...form.getInputProps('link')} required />
              <NumberInput
                label={t('social.quantity')}
                description={
                  service
                    ? t('social.quantityRange', { min: service.min.toLocaleString('en-NG'), max: service.max.toLocaleString('en-NG') })
                    : undefined
                }
                min={service?.min}
                max={service?.max}
                allowDecimal={false}
                allowNegative={false}
                thousandSeparator=","
                {...form.getInputProps('quantity')}
                onChange={(v) => form.setFieldValue('quantity', typeof v === 'number' ? v : '')}
                required
              />
            </Stack>
          </fieldset>
          {(services.error || (priced.error && !underFields)) && (
            <Alert color="red" role="alert">
              {errorMessage(services.error ?? priced.error)}
            </Alert>
          )}
          {!ready && (
            <Button type="submit" loading={priced.isPending}>
              {t('buy.review')}
            </Button>
          )}
        </Stack>
      </form>
      {ready && <ConfirmPurchase {...ready} onCancel={() => setReady(null)} />}
    </Stack>
  );
}

/** A social order's progress: the count when it started, how many were delivered, and the refund of the rest. */
interface SocialView {
  startCount?: number;
  quantity: number;
  delivered?: number;
  remains?: number;
  refunded?: number;
}

/** The result screen's part for a social order: its progress, and what was refunded. */
export function Result({ tx }: KindResultProps) {
  return tx.social ? <SocialResult social={tx.social} processing={tx.status === 'processing'} /> : null;
}

function SocialResult({ social, processing }: { social: SocialView; processing: boolean }) {
  const { t } = useTranslation();
  const delivered = social.delivered ?? (processing ? 0 : social.quantity - (social.remains ?? 0));
  return (
    <Stack gap={4} data-testid="social-progress">
      {social.startCount !== undefined && <Text size="sm">{t('social.startCount', { count: social.startCount })}</Text>}
      <Text size="sm">
        {t('social.delivered', { delivered: delivered.toLocaleString('en-NG'), quantity: social.quantity.toLocaleString('en-NG') })}
      </Text>
      <Progress value={social.quantity ? (100 * delivered) / social.quantity : 0} aria-hidden />
      {social.refunded ? (
        <Alert color="yellow" data-testid="social-refund">
          {t('social.partRefunded', { remains: (social.remains ?? 0).toLocaleString('en-NG'), amount: formatNaira(social.refunded) })}
        </Alert>
      ) : null}
    </Stack>
  );
}
