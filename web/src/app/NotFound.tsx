import { Button, Center, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** The one page for an address the app does not have, signed in or not. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <main>
      <Center mih="60vh" p="md">
        <Stack maw={420} align="center">
          <Title order={1}>{t('app.notFound')}</Title>
          <Button component={Link} to="/">
            {t('app.goHome')}
          </Button>
        </Stack>
      </Center>
    </main>
  );
}
