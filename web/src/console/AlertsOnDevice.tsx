import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../app/errors';
import { enablePush } from '../app/push';

const supported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * "Turn on alerts on this device" (issue 44): the operators' alerts are pushed to every browser the operator's account
 * subscribed, and this subscribes the console's browser as the app's Notifications screen does (enablePush: the
 * browser's permission, then the subscription saved with this session, renewed at each sign-in). The answer is said
 * in a status line; a browser without web push shows nothing.
 */
export function AlertsOnDevice() {
  const { t } = useTranslation();
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!supported()) return null;
  const turnOn = () => {
    setBusy(true);
    setSaid(null);
    enablePush()
      .then((r) => setSaid(t(`console.alertsOnDevice.${r}`)))
      .catch((err: unknown) => setSaid(t('console.alertsOnDevice.failed', { error: errorMessage(err) })))
      .finally(() => setBusy(false));
  };
  return (
    <Stack gap={4} p="xs">
      <Button variant="light" size="xs" loading={busy} onClick={turnOn}>
        {t('console.alertsOnDevice.turnOn')}
      </Button>
      <Text size="xs" c="dimmed" role="status">
        {said}
      </Text>
    </Stack>
  );
}
