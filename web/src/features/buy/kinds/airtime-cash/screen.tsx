import { Alert, Badge, Button, Code, CopyButton, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, newIdempotencyKey } from '../../../../api/client';
import { airtimeCashQueries } from './queries';
import { airtimeCashSchema, sendingNumberCodeSchema, sendingNumberSchema } from './schemas';
import { useAuth } from '../../../../app/auth';
import { errorMessage } from '../../../../app/errors';
import { formatDateTime, formatNaira } from '../../../../app/format';
import { detectNetwork, NETWORK_NAMES, NETWORKS, type Network } from '../../../../app/network';
import { refusalMessage } from '../../../../app/pin-errors';
import { AmountInput } from '../../../../components/AmountInput';
import { amountProps, useSchemaForm, type FieldHints } from '../../../../components/form';
import { PinPad } from '../../../../components/PinPad';
import * as api from '../../../../api/calls';

type Request = Awaited<ReturnType<ReturnType<typeof airtimeCashQueries.one>['queryFn'] & {}>>;
const OTHER = 'other';

/**
 * Airtime to cash (issue 32): the customer picks a verified sending number (or proves another by SMS code), the
 * network and the amount, sees what the wallet gets, confirms with the PIN, and is told where and how to send the
 * airtime. The wallet is credited when the provider confirms receipt; "I have sent it" asks the provider now.
 */
export function Screen() {
  const [shown, setShown] = useState<Request | null>(null);
  if (shown) return <Instructions initial={shown} onDone={() => setShown(null)} />;
  return (
    <Stack>
      <SellForm onRequested={setShown} />
      <Recent onOpen={setShown} />
    </Stack>
  );
}

function SellForm({ onRequested }: { onRequested(r: Request): void }) {
  const { t } = useTranslation();
  const networks = useQuery(airtimeCashQueries.networks());
  const numbers = useQuery(airtimeCashQueries.numbers());
  // The amount is the form's field; the sending number and the network are chosen from lists (checked on review).
  const form = useSchemaForm(airtimeCashSchema.pick({ amount: true }), { amount: '' as number | '' });
  const values = form.getValues();
  const [networkChoice, setNetworkChoice] = useState<Network | ''>('');
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [choice, setChoice] = useState('');
  const verified = numbers.data?.items ?? [];
  const picked = choice || verified[0]?.phone || OTHER;
  const [ready, setReady] = useState<{ network: Network; phone: string; amount: number } | null>(null);

  const phone = picked === OTHER ? '' : picked;
  // The network follows the sending number's prefix until the customer picks another (a ported number).
  const chosenNetwork = networkChoice || detectNetwork(phone) || '';
  const network = networks.data?.items.find((n) => n.id === chosenNetwork);

  const review = form.onSubmit((v) => {
    if (picked === OTHER) return setPhoneError(t('airtimeCash.verifyFirst'));
    const c = airtimeCashSchema.safeParse({ ...v, phone, network: chosenNetwork });
    if (!c.success)
      return setPhoneError(c.error.issues.some((i) => i.path[0] === 'network') ? t('buy.networkRequired') : t('buy.phoneInvalid'));
    if (network && (c.data.amount < network.minAmount || c.data.amount > network.maxAmount)) return;
    setReady(c.data);
  });
  return (
    <Stack>
      <Text size="sm">{t('airtimeCash.intro')}</Text>
      <form onSubmit={review} noValidate>
        <fieldset disabled={ready !== null} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            <NativeSelect
              label={t('airtimeCash.from')}
              value={picked}
              error={phoneError}
              onChange={(e) => {
                setChoice(e.currentTarget.value);
                setNetworkChoice('');
                setPhoneError(undefined);
              }}
              data={[...verified.map((n) => ({ value: n.phone, label: n.phone })), { value: OTHER, label: t('airtimeCash.otherNumber') }]}
            />
            {picked === OTHER && (
              <VerifyNumber
                onVerified={(verifiedPhone) => {
                  setChoice(verifiedPhone);
                  setPhoneError(undefined);
                }}
              />
            )}
            <NativeSelect
              label={t('buy.network')}
              value={chosenNetwork}
              onChange={(e) => setNetworkChoice(e.currentTarget.value as Network | '')}
              data={[{ value: '', label: '—' }, ...NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))]}
              required
            />
            <AmountInput
              label={t('airtimeCash.amount')}
              min={network?.minAmount}
              max={network?.maxAmount}
              description={network ? t('airtimeCash.rate', { rate: network.rate }) : undefined}
              {...amountProps(form, 'amount')}
            />
            {network && typeof values.amount === 'number' && (
              <Text fw={600} data-testid="a2c-credit">
                {t('airtimeCash.youGet', { amount: formatNaira(Math.floor(values.amount * network.rate) / 100) })}
              </Text>
            )}
          </Stack>
        </fieldset>
        {networks.error && (
          <Alert color="red" role="alert" mt="sm">
            {errorMessage(networks.error)}
          </Alert>
        )}
        {!ready && (
          <Button type="submit" mt="md" fullWidth>
            {t('buy.review')}
          </Button>
        )}
      </form>
      {ready && network && <Confirm input={ready} rate={network.rate} onCancel={() => setReady(null)} onRequested={onRequested} />}
    </Stack>
  );
}

const NUMBER_HINTS: FieldHints = { phone: 'buy.phoneInvalid', code: 'fields.code' };

/** Another sending number, proved by the code sent to it by SMS (a part of the sell form, so its own two small forms are checked by their buttons). */
function VerifyNumber({ onVerified }: { onVerified(phone: string): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const phoneForm = useSchemaForm(sendingNumberSchema, { phone: '' }, NUMBER_HINTS);
  const codeForm = useSchemaForm(sendingNumberCodeSchema, { code: '' }, NUMBER_HINTS);
  const phone = phoneForm.values.phone.trim();
  const [sent, setSent] = useState(false);
  const send = useMutation({
    mutationFn: () => api.sendAirtimeCashNumberCode({ phone }),
    onSuccess: async (r) => {
      if (r.alreadyVerified) {
        await qc.invalidateQueries({ queryKey: airtimeCashQueries.all() });
        onVerified(phone);
      } else setSent(true);
    },
  });
  const verify = useMutation({
    mutationFn: (code: string) => api.verifyAirtimeCashNumber({ phone, code }),
    onSuccess: async (r) => {
      await qc.invalidateQueries({ queryKey: airtimeCashQueries.all() });
      onVerified(r.phone);
    },
  });
  const error = send.error ?? verify.error;
  return (
    <Stack gap="xs">
      <TextInput
        label={t('buy.phone')}
        inputMode="tel"
        {...phoneForm.getInputProps('phone')}
        onChange={(e) => (phoneForm.setFieldValue('phone', e.currentTarget.value), setSent(false))}
      />
      {sent && (
        <TextInput
          label={t('airtimeCash.code')}
          inputMode="numeric"
          maxLength={6}
          {...codeForm.getInputProps('code')}
          onChange={(e) => codeForm.setFieldValue('code', e.currentTarget.value.replace(/\D/g, ''))}
        />
      )}
      <Text size="xs" c="dimmed">
        {t('airtimeCash.verifyHelp')}
      </Text>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {sent ? (
        <Button variant="light" onClick={() => codeForm.onSubmit((v) => verify.mutate(v.code))()} loading={verify.isPending}>
          {t('airtimeCash.verify')}
        </Button>
      ) : (
        <Button variant="light" onClick={() => phoneForm.onSubmit(() => send.mutate())()} loading={send.isPending}>
          {t('airtimeCash.sendCode')}
        </Button>
      )}
    </Stack>
  );
}

function Confirm(p: {
  input: { network: Network; phone: string; amount: number };
  rate: number;
  onCancel(): void;
  onRequested(r: Request): void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const auth = useAuth();
  const [pin, setPin] = useState('');
  const key = useRef(newIdempotencyKey());
  const ask = useMutation({
    mutationFn: (value: string) => api.requestAirtimeCash({ ...p.input, pin: value }, { idempotencyKey: key.current }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: airtimeCashQueries.all() });
      p.onRequested(r.request);
    },
    onError: (err) => {
      key.current = newIdempotencyKey();
      setPin('');
      if (err instanceof ApiError && err.code === 'SESSION_SUPERSEDED') auth.superseded();
    },
  });
  const lines: [string, string][] = [
    [t('buy.network'), NETWORK_NAMES[p.input.network]],
    [t('airtimeCash.from'), p.input.phone],
    [t('airtimeCash.amount'), formatNaira(p.input.amount)],
    [t('airtimeCash.youGetLabel'), `${formatNaira(Math.floor(p.input.amount * p.rate) / 100)} (${p.rate}%)`],
  ];
  return (
    <Stack component="section" aria-label={t('airtimeCash.confirmTitle')}>
      <Title order={2} size="h4">
        {t('airtimeCash.confirmTitle')}
      </Title>
      <Table layout="fixed" className="receipt-table">
        <Table.Tbody>
          {lines.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th scope="row">{k}</Table.Th>
              <Table.Td>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {ask.error && (
        <Alert color="red" role="alert">
          {refusalMessage(ask.error)}
        </Alert>
      )}
      <PinPad value={pin} onChange={setPin} onConfirm={(v) => ask.mutate(v)} busy={ask.isPending} focus />
      <Button variant="subtle" onClick={p.onCancel} disabled={ask.isPending}>
        {t('app.cancel')}
      </Button>
    </Stack>
  );
}

const STATUS_COLOR = { awaiting: 'blue', credited: 'green', expired: 'gray', failed: 'red' } as const;

/** Where and how to send the airtime, the reference, and what the provider has confirmed so far. */
function Instructions({ initial, onDone }: { initial: Request; onDone(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const current = useQuery({ ...airtimeCashQueries.one(initial.id), initialData: initial });
  const r = current.data;
  const check = useMutation({
    mutationFn: () => api.checkMyAirtimeCashRequest({ id: r.id }),
    onSuccess: (out) => {
      qc.setQueryData(airtimeCashQueries.one(r.id).queryKey, out.request);
      void qc.invalidateQueries({ queryKey: airtimeCashQueries.all() });
    },
  });
  return (
    <Stack component="section" aria-label={t('airtimeCash.instructionsTitle')} data-testid="a2c-instructions">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('airtimeCash.instructionsTitle')}
        </Title>
        <Badge color={STATUS_COLOR[r.status]} data-testid="a2c-status">
          {t(`airtimeCash.status.${r.status}`)}
        </Badge>
      </Group>
      {r.status === 'failed' ? (
        <Alert color="red" role="alert">
          {r.failureReason ?? t('airtimeCash.failed')}
        </Alert>
      ) : (
        <>
          {r.status === 'awaiting' && (
            <Text>
              {t('airtimeCash.send', {
                amount: formatNaira(r.amount),
                network: NETWORK_NAMES[r.network as Network] ?? r.network,
                from: r.phone,
              })}
            </Text>
          )}
          <Table layout="fixed" className="receipt-table">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">{t('airtimeCash.receivingNumber')}</Table.Th>
                <Table.Td data-testid="a2c-receiving">{r.receivingNumber}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('airtimeCash.reference')}</Table.Th>
                <Table.Td data-testid="a2c-reference">{r.reference}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('airtimeCash.youGetLabel')}</Table.Th>
                <Table.Td>{formatNaira(r.credited ?? r.expectedCredit)}</Table.Td>
              </Table.Tr>
              {r.status === 'awaiting' && (
                <Table.Tr>
                  <Table.Th scope="row">{t('airtimeCash.sendBefore')}</Table.Th>
                  <Table.Td>{formatDateTime(r.expiresAt)}</Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {r.status === 'awaiting' && (
            <>
              <Text size="sm">{t('airtimeCash.dial')}</Text>
              <Group gap="xs">
                <Code fz="lg" data-testid="a2c-ussd">
                  {r.ussd}
                </Code>
                <CopyButton value={r.ussd}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" onClick={copy}>
                      {copied ? t('airtimeCash.copied') : t('airtimeCash.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Text size="xs" c="dimmed">
                {t('airtimeCash.pinNote')}
              </Text>
              <Alert color="blue">{t('airtimeCash.onlyOnConfirmation')}</Alert>
              {check.error && (
                <Alert color="red" role="alert">
                  {errorMessage(check.error)}
                </Alert>
              )}
              <Button onClick={() => check.mutate()} loading={check.isPending}>
                {t('airtimeCash.sent')}
              </Button>
            </>
          )}
          {r.status === 'credited' && (
            <Alert color="green" role="status" data-testid="a2c-credited">
              {r.partial
                ? t('airtimeCash.creditedPartial', {
                    amount: formatNaira(r.credited ?? 0),
                    received: formatNaira(r.amountReceived ?? 0),
                    expected: formatNaira(r.amount),
                  })
                : t('airtimeCash.credited', { amount: formatNaira(r.credited ?? 0) })}
            </Alert>
          )}
          {r.status === 'expired' && <Alert color="gray">{t('airtimeCash.expired')}</Alert>}
        </>
      )}
      <Button variant="subtle" onClick={onDone}>
        {t('airtimeCash.another')}
      </Button>
    </Stack>
  );
}

/** The customer's last requests, to find an open one's instructions again. */
function Recent({ onOpen }: { onOpen(r: Request): void }) {
  const { t } = useTranslation();
  const recent = useQuery(airtimeCashQueries.recent());
  const items = recent.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Stack gap="xs" component="section" aria-label={t('airtimeCash.recent')}>
      <Title order={2} size="h5">
        {t('airtimeCash.recent')}
      </Title>
      {items.map((r) => (
        <Button
          key={r.id}
          variant="default"
          justify="space-between"
          onClick={() => onOpen(r)}
          rightSection={<Badge color={STATUS_COLOR[r.status]}>{t(`airtimeCash.status.${r.status}`)}</Badge>}
        >
          {formatNaira(r.amount)} · {r.phone}
        </Button>
      ))}
    </Stack>
  );
}
