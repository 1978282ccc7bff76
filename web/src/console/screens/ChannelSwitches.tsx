import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { adminQueries } from '../../api/queries/admin';
import { Failure } from '../../components/Failure';
import { useCan } from '../roles';
import { useOperatorStepUp } from '../step-up';
import { Loaded } from '../../components/Loaded';
import * as api from '../../api/calls';

/** A channel's name as operators read it (vtu_transactions.channel), or the channel itself when it has none. */
export function channelName(channel: string): string {
  const names: Record<string, string> = { app: i18next.t('console.channelSwitches.app'), ussd: 'USSD', whatsapp: 'WhatsApp' };
  return names[channel] ?? channel;
}
const SWITCHABLE = ['ussd', 'whatsapp'] as const;
const channelsQuery = () => ({
  queryKey: [...adminQueries.all(), 'channels'],
  queryFn: () => api.adminGetChannels(),
});

/**
 * Whether the USSD menu and the WhatsApp assistant take customers (issue 46), and for an operator who may set them the switch of each
 * (adminSetChannels, with step-up). The app and the API are never off.
 */
export function ChannelSwitches() {
  const { t } = useTranslation();
  const admin = useCan()('adminSetChannels');
  const channels = useQuery(channelsQuery());
  const qc = useQueryClient();
  const stepUp = useOperatorStepUp();
  const [error, setError] = useState<unknown>(null);
  async function flip(channel: (typeof SWITCHABLE)[number], on: boolean) {
    setError(null);
    try {
      const r = await stepUp.withGrant((grantToken) => api.adminSetChannels({ [channel]: on }, grantToken ? { grantToken } : {}));
      qc.setQueryData(channelsQuery().queryKey, r);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="channel-switches">
      <Title order={3} size="h5" id="channel-switches" mb="xs">
        {t('console.channelSwitches.title')}
      </Title>
      <Failure error={error} />
      <Loaded query={channels}>
        {(c) => (
          <Stack gap="xs">
            {SWITCHABLE.map((ch) => (
              <Group key={ch} justify="space-between">
                <Text>
                  {t('console.channelSwitches.state', {
                    channel: channelName(ch),
                    state: c[ch] ? t('console.channelSwitches.on') : t('console.channelSwitches.off'),
                  })}
                </Text>
                {admin && (
                  <Button size="xs" variant="default" onClick={() => void flip(ch, !c[ch])}>
                    {t(c[ch] ? 'console.channelSwitches.turnOff' : 'console.channelSwitches.turnOn', { channel: channelName(ch) })}
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Loaded>
      {stepUp.modal}
    </Card>
  );
}
