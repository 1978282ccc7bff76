import { Alert, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addPasskey } from '../../api/passkeys';
import { settingsQueries } from '../../api/queries/settings';
import { errorMessage } from '../../app/errors';
import { formatDateTime } from '../../app/format';
import { refusalMessage } from '../../app/pin-errors';
import { useStepUp } from '../../app/StepUp';
import { PinPad } from '../../components/PinPad';
import { Section } from '../../components/Section';
import { usePlatformPasskey } from '../../components/usePlatformPasskey';
import * as api from '../../api/calls';

/**
 * Issue 43: fingerprint or face (passkeys): the ones added, each with Remove, Add on a phone that can (a step-up first,
 * as for every new credential), and "Use for payments", turned on with the transaction PIN.
 */
export function PasskeySettings() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const here = usePlatformPasskey();
  const stepUp = useStepUp();
  const list = useQuery(settingsQueries.passkeys());
  const [askPin, setAskPin] = useState(false);
  const [pin, setPin] = useState('');
  const [removed, setRemoved] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: settingsQueries.passkeys().queryKey });
  const add = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => addPasskey({ grantToken })),
    onSuccess: () => (setRemoved(false), void refresh()),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.deletePasskey({ id }),
    onSuccess: () => (setRemoved(true), void refresh()),
  });
  const payments = useMutation({
    mutationFn: (v: { on: boolean; pin?: string }) => api.setPasskeyPayments(v),
    onSuccess: () => (setAskPin(false), setPin(''), void refresh()),
    onError: () => setPin(''),
  });
  const items = list.data?.items ?? [];
  const on = Boolean(list.data?.payments);
  return (
    <Section id="passkeys" title={t('passkeys.title')}>
      <Text size="sm">{t('passkeys.intro')}</Text>
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.data && !items.length && <Text>{t('passkeys.none')}</Text>}
      {items.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((p) => (
            <Group component="li" key={p.id} justify="space-between" wrap="nowrap">
              <div>
                <Text fw={600}>{p.name}</Text>
                <Text size="sm">{t('passkeys.added', { time: formatDateTime(p.createdAt) })}</Text>
                {p.lastUsedAt && <Text size="sm">{t('passkeys.lastUsed', { time: formatDateTime(p.lastUsedAt) })}</Text>}
              </div>
              <Button variant="subtle" color="red" size="xs" onClick={() => remove.mutate(p.id)} loading={remove.isPending}>
                {t('passkeys.remove', { name: p.name })}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      {removed && <Text role="status">{t('passkeys.removed')}</Text>}
      {here ? (
        <Button variant="default" onClick={() => add.mutate()} loading={add.isPending}>
          {t('passkeys.add')}
        </Button>
      ) : (
        <Text size="sm">{t('passkeys.notOnThisPhone')}</Text>
      )}
      {(add.isError || remove.isError) && (
        <Alert color="red" role="alert">
          {add.isError ? t('passkeys.failed') : errorMessage(remove.error)}
        </Alert>
      )}
      {items.length > 0 && (
        <Switch
          label={t('passkeys.forPayments')}
          description={t('passkeys.forPaymentsHelp')}
          checked={on || askPin}
          disabled={payments.isPending}
          onChange={(e) => (e.currentTarget.checked ? setAskPin(true) : (setAskPin(false), on && payments.mutate({ on: false })))}
        />
      )}
      {askPin && !on && (
        <Stack gap="xs">
          <Text>{t('passkeys.pinToTurnOn')}</Text>
          <PinPad value={pin} onChange={setPin} onConfirm={(v) => payments.mutate({ on: true, pin: v })} busy={payments.isPending} focus />
        </Stack>
      )}
      {payments.isError && (
        <Alert color="red" role="alert">
          {refusalMessage(payments.error)}
        </Alert>
      )}
      {stepUp.modal}
    </Section>
  );
}
