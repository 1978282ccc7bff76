import { Card, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';
import { formatNaira } from '../../app/format';

/** The wallet read every money screen shares (one cache entry: 'wallet'). */
export const walletQuery = { queryKey: ['wallet'], queryFn: () => get('/_serverFn/getWalletStateBearerWallet') };

export function Balances(p: { balance?: number; lockedBonus?: number; referralLockedBonus?: number }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" bg="brand.8" c="white">
      <Text size="sm">{t('home.balance')}</Text>
      <Text fz={32} fw={700} className="amount-large" data-testid="balance">
        {p.balance === undefined ? '…' : formatNaira(p.balance)}
      </Text>
      <Group gap="lg">
        <Text size="sm">
          {t('home.lockedBonus')}: {p.lockedBonus === undefined ? '…' : formatNaira(p.lockedBonus)}
        </Text>
        <Text size="sm">
          {t('home.referralBonus')}: {p.referralLockedBonus === undefined ? '…' : formatNaira(p.referralLockedBonus)}
        </Text>
      </Group>
    </Card>
  );
}
