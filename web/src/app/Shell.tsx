import { AppShell, Badge, Burger, Button, Center, Group, Loader, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SignIn } from '../features/auth/SignIn';
import { OfflineHome } from '../features/home/OfflineHome';
import { useAuth } from './auth';
import { peekDraft } from './draft';
import { isCode } from './errors';
import { BellIcon } from './icons';

// The phone tab bar comes in its own small chunk, after the first screen.
const TabBar = lazy(() => import('./TabBar').then((m) => ({ default: m.TabBar })));
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
  const navigate = useNavigate();
  // Signed in again after the session ended in the middle of a purchase: back to that form, filled in as it was.
  useEffect(() => {
    const draft = peekDraft();
    if (draft && !window.location.pathname.startsWith('/buy')) void navigate({ to: '/buy', search: { service: draft.service } });
  }, [navigate]);
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
          <Button
            variant="subtle"
            component={Link}
            to="/notifications"
            px="xs"
            leftSection={<BellIcon />}
            aria-label={
              count > 0 ? `${t('nav.notifications')} ${unreadLabel(count)} ${t('notifications.unreadSuffix')}` : t('nav.notifications')
            }
            styles={{ inner: { overflow: 'visible' }, label: { overflow: 'visible' } }}
          >
            <Text span inherit visibleFrom="sm">
              {t('nav.notifications')}
            </Text>
            {count > 0 && (
              <Badge
                ml={6}
                color="red"
                data-testid="unread-badge"
                styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
              >
                {unreadLabel(count)}
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
      <Suspense fallback={null}>
        <TabBar path={path} onMenu={toggle} menuOpen={opened} />
      </Suspense>
    </AppShell>
  );
}

/** The unread count as the badge shows it: the full number up to 99, then "99+". */
export const unreadLabel = (count: number) => (count > 99 ? '99+' : String(count));
