import { Alert, Group, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { Later } from '../../app/later';
import { ServiceGrid } from '../../app/ServiceGrid';
import { saveOffline } from '../../app/offline';
import { ActivityList } from '../../components/ActivityList';
import { settingsQueries } from '../../api/queries/settings';
import { walletQueries } from '../../api/queries/wallet';
import { Balances } from './Balances';
import { LinkButton } from '../../components/LinkButton';
import { SetupPrompt } from '../../components/SetupPrompt';

/** Every service, a tile each (the buy screen's grid). */
function Services() {
  const { t } = useTranslation();
  return (
    <nav aria-labelledby="services">
      <Title order={2} id="services" size="h4" mb="xs">
        {t('home.services')}
      </Title>
      <ServiceGrid />
    </nav>
  );
}

export function Home() {
  const { t } = useTranslation();
  const wallet = useQuery(walletQueries.state());
  // Issue 30: an operator froze the account; money operations answer ACCOUNT_FROZEN, so say it up front.
  const frozen = useQuery(settingsQueries.profile()).data?.profile.frozen;
  useEffect(() => {
    if (wallet.data) saveOffline(wallet.data);
  }, [wallet.data]);
  return (
    <Stack>
      <Title order={1}>{t('home.title')}</Title>
      {frozen && (
        <Alert color="yellow" role="status" data-testid="frozen-banner">
          {t('home.frozen')}
        </Alert>
      )}
      <SetupPrompt />
      {wallet.error && (
        <Alert color="red" role="alert">
          {errorMessage(wallet.error)}
        </Alert>
      )}
      <Balances
        balance={wallet.data?.balance}
        lockedBonus={wallet.data?.lockedBonus}
        referralLockedBonus={wallet.data?.referralLockedBonus}
      />
      {/* Below the balance, one task each (later.tsx): the screen draws top down in short tasks. */}
      <Later>
        <Services />
      </Later>
      <Later>
        <section aria-labelledby="quick">
          <Title order={2} id="quick" size="h4" mb="xs">
            {t('home.quickActions')}
          </Title>
          <div className="quick-grid">
            <LinkButton to="/fund" variant="light">
              {t('nav.fund')}
            </LinkButton>
            <LinkButton to="/transfer" variant="light">
              {t('nav.transfer')}
            </LinkButton>
            <LinkButton to="/withdraw" variant="light">
              {t('nav.withdraw')}
            </LinkButton>
          </div>
        </section>
      </Later>
      <Later>
        <section aria-labelledby="recent">
          <Group justify="space-between">
            <Title order={2} id="recent" size="h4">
              {t('home.recent')}
            </Title>
            <LinkButton to="/transactions" variant="subtle" size="compact-sm">
              {t('home.viewAll')}
            </LinkButton>
          </Group>
          <ActivityList items={wallet.data?.log.slice(0, 5)} />
        </section>
      </Later>
    </Stack>
  );
}
