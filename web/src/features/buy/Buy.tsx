import { Alert, Anchor, SegmentedControl, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../../api/queries/settings';
import { BUY_TABS, buyServiceOr, type BuyService } from '../../app/buy-services';
import { tabLabel } from '../../app/kind-tabs';
import { KIND_SCREENS } from './kind-screens';

/** The buy screen: a tab per kind (app/buy-services.ts), the chosen kind's screen under it. */
export function Buy() {
  const { t, i18n } = useTranslation();
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
        // A kind's tab label is in its folder (app/tab.ts), in each language.
        data={BUY_TABS.map((tab) => ({ value: tab.service, label: tabLabel(tab.label, i18n.language) }))}
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
