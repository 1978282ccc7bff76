import { Alert, Anchor, SegmentedControl, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../../api/queries/settings';
import { BUY_SERVICES, buyServiceOr, type BuyService } from '../../app/buy-services';
import { KIND_SCREENS } from './kind-screens';

/** The buy screen: a tab per kind (app/buy-services.ts), the chosen kind's screen under it. */
export function Buy() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/app/buy' });
  const navigate = useNavigate();
  const service = buyServiceOr(search.service);
  const Screen = KIND_SCREENS[service]?.Screen;
  const hasPin = useQuery(settingsQueries.hasPin());
  return (
    <Stack maw={520}>
      <Title order={1}>{t('buy.title')}</Title>
      <SegmentedControl
        aria-label={t('buy.title')}
        value={service}
        onChange={(v) => void navigate({ to: '/buy', search: { service: v as BuyService } })}
        // A kind's tab label is its name among the first screens' strings (buy.<service>): the home screen's activity
        // lines name purchases with it too.
        data={BUY_SERVICES.map((s) => ({ value: s, label: t(`buy.${s}` as 'buy.airtime') }))}
        fullWidth
        orientation="horizontal"
        style={{ flexWrap: 'wrap' }}
      />
      {hasPin.data && !hasPin.data.hasPin && (
        <Alert color="yellow">
          {t('buy.needsPin')}{' '}
          <Anchor component={Link} to="/settings">
            {t('buy.setPin')}
          </Anchor>
        </Alert>
      )}
      {Screen && <Screen key={service} />}
    </Stack>
  );
}
