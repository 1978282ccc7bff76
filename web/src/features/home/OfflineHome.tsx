import { Alert, Button, Container, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../app/format';
import { readOffline } from '../../app/offline';
import { ActivityList } from '../../components/ActivityList';
import { Balances } from './Balances';

/** Offline start: the last known balance and activity, marked as offline; money actions need a connection. */
export function OfflineHome() {
  const { t } = useTranslation();
  const s = readOffline();
  return (
    <Container component="main" size="sm" py="md">
      <Stack>
        <Title order={1}>{t('home.title')}</Title>
        <Alert color="yellow" role="status" data-testid="offline-banner">
          {t('app.offline', { time: s ? formatDateTime(s.savedAt) : '' })}
        </Alert>
        <Balances balance={s?.balance} lockedBonus={s?.lockedBonus} referralLockedBonus={s?.referralLockedBonus} />
        <Alert color="gray">{t('app.needsConnection')}</Alert>
        <Title order={2} size="h4">
          {t('home.recent')}
        </Title>
        <ActivityList items={s?.log ?? []} linked={false} />
        <Button onClick={() => window.location.reload()}>{t('app.retry')}</Button>
      </Stack>
    </Container>
  );
}
