import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { walletQueries } from '../../api/queries/wallet';
import { formatNaira } from '../../app/format';
import { Failure } from '../../components/Failure';
import { LinkButton } from '../../components/LinkButton';
import { Section } from '../../components/Section';

/** The KYC tier's limits: daily spending (spent and left today), the most the wallet can hold, and the next tier's. */
export function Limits() {
  const { t } = useTranslation();
  const limits = useQuery(walletQueries.limits());
  const l = limits.data;
  const capOf = (cap: number | null) => (cap === null ? t('limits.noCap') : formatNaira(cap));
  return (
    <Section id="limits" title={t('limits.title')}>
      <Failure error={limits.error} />
      {l && (
        <>
          <Text fw={600}>{t('kyc.tier', { tier: l.tier })}</Text>
          <Table layout="fixed" className="receipt-table" data-testid="limits">
            <Table.Tbody>
              {(
                [
                  [t('limits.daily'), formatNaira(l.dailyLimit)],
                  [t('limits.spent'), formatNaira(l.spentToday)],
                  [t('limits.left'), formatNaira(l.leftToday)],
                  [t('limits.balanceCap'), capOf(l.balanceCap)],
                ] as const
              ).map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th scope="row">{k}</Table.Th>
                  <Table.Td>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm">{t('limits.help')}</Text>
          {l.nextTier && (
            <>
              <Text size="sm">
                {l.nextTier.balanceCap === null
                  ? t('limits.nextNoCap', { tier: l.nextTier.tier, daily: formatNaira(l.nextTier.dailyLimit) })
                  : t('limits.next', {
                      tier: l.nextTier.tier,
                      daily: formatNaira(l.nextTier.dailyLimit),
                      cap: formatNaira(l.nextTier.balanceCap),
                    })}
              </Text>
              <LinkButton to="/kyc" variant="light" size="sm" style={{ alignSelf: 'flex-start' }}>
                {t('limits.raise')}
              </LinkButton>
            </>
          )}
        </>
      )}
    </Section>
  );
}
