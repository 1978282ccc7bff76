import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Component, Suspense, useEffect, type ReactNode } from 'react';
import { adminQueries } from '../api/queries/admin';
import { useAuth } from '../app/auth';
import { Failure } from '../components/Failure';
import { watchPersonActivity } from './activity';
import { useFreshAfterWrites } from './fresh';
import { useIdleSignOut } from './idle';
import { ConsoleLayout } from './Layout';
import { useConsolePath } from './nav';
import { operationRoles } from '../api/operation-roles';
import { useOperatorRoles } from './roles';
import { SCREENS, screenOpen } from './screens';
import { ConsoleSignIn } from './SignIn';

/**
 * The operator console (issue #30) at /console: operators sign in as customers do (e-mail code); a signed-in person
 * who is not an operator is told so. Everything here loads only under /console.
 */
export function Console() {
  const auth = useAuth();
  useEffect(watchPersonActivity, []);
  if (auth.status === 'starting')
    return (
      <Center h="100vh">
        <Loader role="status" aria-label="Loading" />
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
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  const profile = me.data.profile as Profile;
  if (!isOperator(profile))
    return (
      <main>
        <Center mih="80vh" p="md">
          <Stack maw={460}>
            <Title order={1}>Not an operator</Title>
            <Text>
              {profile.email} is signed in, but this account is not an operator. The console is for the business&apos;s operators only.
            </Text>
            <Group>
              <Button component="a" href="/">
                Go to the app
              </Button>
              <Button variant="default" onClick={() => void auth.signOut()}>
                Sign out
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

function CurrentScreen() {
  const [name = '', ...rest] = useConsolePath();
  const screen = SCREENS[name];
  const roles = useOperatorRoles();
  useEffect(() => {
    document.title = `${screen?.title ?? 'Not found'} · Operator console`;
  }, [screen]);
  if (!screen)
    return (
      <Stack>
        <Title order={1}>Not found</Title>
        <Text>The console has no screen at this address.</Text>
      </Stack>
    );
  if (!screenOpen(screen, roles))
    return (
      <Stack>
        <Title order={1}>{screen.title}</Title>
        <Alert color="red" role="alert" title="Not for your role">
          Your role is not allowed to open this screen: it is for {operationRoles[screen.reads].join(', ')}.
        </Alert>
      </Stack>
    );
  const Screen = screen.component;
  return (
    <ScreenBoundary key={name}>
      <Suspense
        fallback={
          <Center p="lg">
            <Loader role="status" aria-label="Loading" />
          </Center>
        }
      >
        <Screen rest={rest} />
      </Suspense>
    </ScreenBoundary>
  );
}

/** A screen that fails shows the failure with a retry; the navigation keeps working. */
class ScreenBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Stack maw={520}>
        <Title order={1} size="h3">
          This screen failed
        </Title>
        <Failure error={this.state.error} />
        <Group>
          <Button onClick={() => this.setState({ error: null })}>Try again</Button>
        </Group>
      </Stack>
    );
  }
}
