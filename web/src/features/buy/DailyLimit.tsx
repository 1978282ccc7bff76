import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GetOutput } from '../../api/client';
import { formatNaira } from '../../app/format';
import { LinkButton } from '../../components/LinkButton';
import * as ops from '../../api/operations';

export type WalletLimits = GetOutput<typeof ops.getWalletLimits>;

/**
 * A purchase above what the KYC tier's daily limit still allows today, said at the review instead of the PIN pad:
 * the price, the tier's limit, what is left today, and the next tier's limit with the way to the KYC screen (at the
 * top tier: that the limit starts again at midnight).
 */
export function OverDailyLimit({ limits, price }: { limits: WalletLimits; price: number }) {
  const { t } = useTranslation();
  const next = limits.nextTier;
  return (
    <Alert color="yellow" role="alert" title={t('buy.overLimit')} data-testid="over-limit">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {t('buy.overLimitBody', {
            amount: formatNaira(price),
            tier: limits.tier,
            limit: formatNaira(limits.dailyLimit),
            left: formatNaira(limits.leftToday),
          })}
        </Text>
        {next ? (
          <>
            <Text size="sm">{t('buy.nextTierLimit', { tier: next.tier, limit: formatNaira(next.dailyLimit) })}</Text>
            <LinkButton to="/kyc" size="sm">
              {t('buy.raiseLimit')}
            </LinkButton>
          </>
        ) : (
          <Text size="sm">{t('buy.limitAgain')}</Text>
        )}
      </Stack>
    </Alert>
  );
}
