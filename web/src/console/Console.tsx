import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminQueries } from '../api/queries/admin';
import { useAuth } from '../app/auth';
import { Failure } from '../components/Failure';
import { watchPersonActivity } from './activity';
import { useFreshAfterWrites } from './fresh';
import { useIdleSignOut } from './idle';
import { ConsoleLayout } from './Layout';
import { operationRoles } from '../api/operation-roles';
import { useOperatorRoles } from './roles';
import { screenOf, screenOpen } from './screens';
import { ConsoleSignIn } from './SignIn';

/**
 * The operator console (issue #30) at /console: operators sign in as customers do (e-mail code); a signed-in person
 * who is not an operator is told so. Everything here loads only under /console.
 */
export function Console(): ReactNode {
  const { t } = useTranslation();
  const auth = useAuth();
  useEffect(watchPersonActivity, []);
  if (auth.status === 'starting')
    return (
      <Center h="100vh">
        <Loader role="status" aria-label={t('console.common.loading')} />
      </Center>
    );
  if (auth.status !== 'signedIn') return <ConsoleSignIn superseded={auth.status === 'superseded'} />;
  return <OperatorOnly />;
}

type Profile = { role: string; email: string; operatorRoles?: readonly string[] };
/** An operator: the admin role, or (with roles, issue #30) any operator role. */
export const isOperator = (p: Profile) => p.role === 'admin' || (p.operatorRoles?.length ?? 0) > 0;
/** The operator's roles as the profile gives them (an admin profile without the list: admin). */
const rolesOf = (p: Profile) => (p.operatorRoles?.length ? p.operatorRoles : p.role === 'admin' ? ['admin'] : []);

function OperatorOnly() {
  const { t } = useTranslation();
  const me = useQuery(adminQueries.me());
  const auth = useAuth();
  useIdleSignOut(me.data?.profile.operatorIdleMinutes);
  useFreshAfterWrites();
  if (me.error)
    return (
      <main>
        <Center mih="60vh" p="md">
          <Failure error={me.error} />
        </Center>
      </main>
    );
  if (!me.data)
    return (
      <Center h="100vh">
        <Loader role="status" aria-label={t('console.common.loading')} />
      </Center>
    );
  const profile = me.data.profile as Profile;
  if (!isOperator(profile))
    return (
      <main>
        <Center mih="80vh" p="md">
          <Stack maw={460}>
            <Title order={1}>{t('console.common.notOperator')}</Title>
            <Text>{t('console.common.notOperatorBody', { email: profile.email })}</Text>
            <Group>
              <Button component="a" href="/">
                {t('console.common.goToApp')}
              </Button>
              <Button variant="default" onClick={() => void auth.signOut()}>
                {t('console.common.signOut')}
              </Button>
            </Group>
          </Stack>
        </Center>
      </main>
    );
  return (
    <ConsoleLayout email={profile.email} roles={rolesOf(profile)}>
      <CurrentScreen />
    </ConsoleLayout>
  );
}

/**
 * The screen the address names (its route, in the frame's Outlet) once the operator's roles open it; its document
 * title either way. A screen that fails shows the router's RouteError in its place, with a retry.
 */
function CurrentScreen() {
  const { t } = useTranslation();
  const screen = screenOf(useRouterState({ select: (s) => s.matches.at(-1)?.fullPath }));
  const roles = useOperatorRoles();
  const title = screen ? t(`console.screens.titles.${screen.title}`) : t('console.common.notFound');
  useEffect(() => {
    document.title = t('console.screens.documentTitle', { title });
  }, [t, title]);
  if (screen && !screenOpen(screen, roles))
    return (
      <Stack>
        <Title order={1}>{title}</Title>
        <Alert color="red" role="alert" title={t('console.common.notForRole')}>
          {t('console.common.notForRoleBody', { roles: operationRoles[screen.reads].join(', ') })}
        </Alert>
      </Stack>
    );
  return <Outlet />;
}

/** An address under /console the console does not have: said inside the frame, the navigation still there. */
export function ConsoleNotFound(): ReactNode {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('console.common.notFound')}</Title>
      <Text>{t('console.common.notFoundBody')}</Text>
    </Stack>
  );
}
