import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addPasskey } from '../../api/passkeys';
import { useStepUp } from '../../app/StepUp';

/**
 * Issue 43: onboarding's one skippable screen after the transaction PIN, on a phone that verifies its person: one tap
 * registers a passkey for signing in and, with the PIN just typed, for confirming payments; one tap goes on without.
 */
export function PasskeyOffer({ pin, onDone }: { pin: string; onDone(): void }) {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const [failed, setFailed] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const add = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => addPasskey({ pin, grantToken })),
    onSuccess: onDone,
    onError: () => setFailed(true),
  });
  return (
    <Stack>
      <Title order={2} size="h3" ref={heading} tabIndex={-1}>
        {t('passkeys.offerTitle')}
      </Title>
      <Text>{t('passkeys.offerBody')}</Text>
      {failed && (
        <Alert color="yellow" role="alert">
          {t('passkeys.failed')}
        </Alert>
      )}
      <Button onClick={() => add.mutate()} loading={add.isPending}>
        {t('passkeys.use')}
      </Button>
      <Button variant="subtle" onClick={onDone} disabled={add.isPending}>
        {t('passkeys.notNow')}
      </Button>
      {stepUp.modal}
    </Stack>
  );
}
