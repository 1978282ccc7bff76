import { AppShell, Badge, Burger, Button, Center, Group, Loader, NavLink, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SignIn } from '../features/auth/SignIn';
import { OfflineHome } from '../features/home/OfflineHome';
import { useAuth } from './auth';
import { isCode } from './errors';
import { queryClient } from './query';
import { notificationsQueries } from '../api/queries/notifications';

const NAV = [
  ['/', 'nav.home'],
  ['/buy', 'nav.buy'],
  ['/fund', 'nav.fund'],
  ['/transfer', 'nav.transfer'],
  ['/transactions', 'nav.transactions'],
  ['/kyc', 'nav.kyc'],
  ['/notifications', 'nav.notifications'],
  ['/rewards', 'nav.rewards'],
  ['/orders', 'nav.orders'],
  ['/settings', 'nav.settings'],
] as const;

export function Shell() {
  const auth = useAuth();
  const { t } = useTranslation();

  // A SESSION_SUPERSEDED answer anywhere means another device took the session over.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((e) => {
        if (e.type === 'updated' && e.action.type === 'error' && isCode(e.action.error, 'SESSION_SUPERSEDED')) auth.superseded();
      }),
    [auth],
  );

  if (auth.status === 'starting')
    return (
      <Center h="100vh">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  if (auth.status === 'superseded') return <Superseded />;
  if (auth.status === 'offline') return <OfflineHome />;
  if (auth.status === 'signedOut') return <SignIn />;
  return <SignedInShell />;
}

function Superseded() {
  const { t } = useTranslation();
  return (
    <main>
      <Center mih="100vh" p="md">
        <Stack maw={420}>
          <Title order={1}>{t('auth.superseded')}</Title>
          <Text>{t('auth.supersededBody')}</Text>
          <Button onClick={() => window.location.assign('/')}>{t('auth.signInHere')}</Button>
        </Stack>
      </Center>
    </main>
  );
}

function SignedInShell() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [opened, { toggle, close }] = useDisclosure();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const unread = useQuery(notificationsQueries.unread());
  const count = unread.data?.unread ?? 0;
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a className="skip-link" href="#content">
        {t('app.skip')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.main')} />
            <Text fw={700} component={Link} to="/" c="brand.8" td="none">
              {t('app.name')}
            </Text>
          </Group>
          <Button variant="subtle" component={Link} to="/notifications">
            {t('nav.notifications')}
            {count > 0 && (
              <Badge ml={6} color="red">
                {count}
                <VisuallyHidden> {t('notifications.unreadSuffix')}</VisuallyHidden>
              </Badge>
            )}
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.main')} component="nav">
        {NAV.map(([to, label]) => (
          <NavLink
            key={to}
            component={Link}
            to={to}
            label={t(label)}
            active={to === '/' ? path === '/' : path.startsWith(to)}
            onClick={close}
          />
        ))}
        <NavLink component="button" label={t('nav.signOut')} onClick={() => void auth.signOut()} />
      </AppShell.Navbar>
      <AppShell.Main id="content" component="main">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
