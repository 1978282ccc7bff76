import { Button, Center, Group, Stack, Title } from '@mantine/core';
import { Link, useRouter, useRouterState, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './errors';

// A screen's code that could not be downloaded (offline, or a new version replaced the file): say "no connection".
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|error loading dynamically/i;

/**
 * What a route shows when its screen fails (every route has it as its errorComponent): the failure in words, a way
 * to try the same screen again and a way home (the console's dashboard inside the console). The rest of the app (header, navigation) keeps working.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  // Home is the console's dashboard for a console screen, the app's home for the others.
  const inConsole = useRouterState({ select: (s) => s.location.pathname.startsWith('/console') });
  const chunkFailed = error instanceof Error && CHUNK_FAILED.test(error.message);
  const message = chunkFailed ? t('errors.NETWORK') : errorMessage(error);
  return (
    <Stack maw={480} py="md" role="alert">
      <Title order={1} size="h3">
        {message}
      </Title>
      <Group>
        <Button
          onClick={() => {
            // The router keeps a failed download's error: only a new page load fetches the screen's code again.
            if (chunkFailed) return window.location.reload();
            reset();
            void router.invalidate();
          }}
        >
          {t('app.retry')}
        </Button>
        <Button variant="default" component={Link} to={inConsole ? '/console' : '/'}>
          {t('app.goHome')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The same, for the routes outside the signed-in shell (the shell gives the others their main landmark). */
export function PageError(p: ErrorComponentProps) {
  return (
    <main>
      <Center p="md">
        <RouteError {...p} />
      </Center>
    </main>
  );
}
