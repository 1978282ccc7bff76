import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import { growthQueries } from '../../api/queries/growth';
import { walletQueries } from '../../api/queries/wallet';
import { formatNaira } from '../../app/format';
import { Failure } from '../../components/Failure';
import { LinkButton } from '../../components/LinkButton';
import { PinPad } from '../../components/PinPad';
import { Section } from '../../components/Section';
import * as api from '../../api/calls';

/**
 * Issue 45: my price level, the next one and how to reach it: "Upgrade for ₦X" pays the fee from the wallet with the
 * PIN (upgradePriceLevel, once), or the business grants it.
 */
export function PriceLevel() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const level = useQuery(growthQueries.level());
  const [choosing, setChoosing] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const key = useRef(newIdempotencyKey());
  const upgrade = useMutation({
    mutationFn: (v: { level: string; pin: string }) => api.upgradePriceLevel(v, { idempotencyKey: key.current }),
    onSuccess: (r) => {
      setDone(r.level.name);
      setChoosing(null);
      void qc.invalidateQueries({ queryKey: growthQueries.level().queryKey });
      void qc.invalidateQueries({ queryKey: walletQueries.all() });
    },
    onSettled: () => ((key.current = newIdempotencyKey()), setPin('')),
  });
  const d = level.data;
  const next = d?.above[0];
  const chosen = d?.above.find((l) => l.id === choosing);
  return (
    <Section id="price-level" title={t('levels.title')}>
      <Failure error={level.error ?? upgrade.error} />
      {d && (
        <Stack gap="xs">
          <Text fw={600}>{t('levels.current', { name: d.level.name })}</Text>
          <Text size="sm">{t('levels.intro')}</Text>
          {!next && <Text size="sm">{t('levels.top')}</Text>}
          {d.level.rank > 0 && (
            <LinkButton to="/recharge-cards" variant="light">
              {t('epins.open')}
            </LinkButton>
          )}
          {d.above.map((l) =>
            l.upgradeFee === null ? (
              <Text key={l.id} size="sm">
                {t('levels.granted', { name: l.name })}
              </Text>
            ) : (
              <Button key={l.id} variant={l.id === next?.id ? 'filled' : 'light'} onClick={() => setChoosing(l.id)}>
                {t('levels.upgrade', { name: l.name, amount: formatNaira(l.upgradeFee) })}
              </Button>
            ),
          )}
          {chosen && chosen.upgradeFee !== null && (
            <>
              <Text size="sm">{t('levels.pinFor', { name: chosen.name, amount: formatNaira(chosen.upgradeFee) })}</Text>
              <PinPad
                value={pin}
                onChange={setPin}
                onConfirm={(p) => upgrade.mutate({ level: chosen.id, pin: p })}
                busy={upgrade.isPending}
              />
            </>
          )}
          {done && (
            <Alert color="green" role="status">
              {t('levels.done', { name: done })}
            </Alert>
          )}
        </Stack>
      )}
    </Section>
  );
}
