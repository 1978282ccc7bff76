import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../../api/queries/settings';
import { walletQueries } from '../../api/queries/wallet';
import { buyServiceOr } from '../../app/buy-services';
import { Later } from '../../app/later';
import { ServiceGrid } from '../../app/ServiceGrid';
import { Loading } from '../../components/Loaded';
import { KIND_SCREENS } from './kind-screens';

/**
 * The buy screen: a tile per kind (app/ServiceGrid.tsx, in the tabs' order of app/buy-services.ts), the chosen kind's
 * screen under it, drawn once its code has loaded (kind-screens.ts: the spinner meanwhile).
 */
export function Buy() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/app/buy' });
  const service = buyServiceOr(search.service);
  const Screen = KIND_SCREENS[service];
  const hasPin = useQuery(settingsQueries.hasPin());
  // The review checks today's limit before the PIN (ConfirmPurchase): asked for while the form is filled in.
  usePrefetchQuery(walletQueries.limits());
  return (
    <Stack maw={520}>
      <Title order={1}>{t('buy.title')}</Title>
      <nav aria-label={t('home.services')}>
        <ServiceGrid current={service} />
      </nav>
      {hasPin.data && !hasPin.data.hasPin && (
        <Alert color="yellow">
          {t('buy.needsPin')}{' '}
          <Anchor component={Link} to="/settings">
            {t('buy.setPin')}
          </Anchor>
        </Alert>
      )}
      {/* The kind's code is asked for in a task after the grid's (the request adds a preload link per chunk it imports). */}
      <Later fallback={<Loading />}>
        <Suspense fallback={<Loading />}>{Screen && <Screen key={service} />}</Suspense>
      </Later>
    </Stack>
  );
}
