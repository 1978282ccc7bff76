import { Badge, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
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
import { Later } from './later';
import './shell.css';

// The phone tab bar comes in its own small chunk, after the first screen.
const TabBar = lazy(() => import('./TabBar').then((m) => ({ default: m.TabBar })));
import { queryClient } from './query';
import { notificationsQueries } from '../api/queries/notifications';

const NAV = [
  ['/', 'nav.home'],
  ['/buy', 'nav.buy'],
  ['/fund', 'nav.fund'],
  ['/transfer', 'nav.transfer'],
  ['/withdraw', 'nav.withdraw'],
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

  const loading = (
    <Center h="100vh">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
  if (auth.status === 'starting') return loading;
  if (auth.status === 'superseded') return <Superseded />;
  if (auth.status === 'offline') return <OfflineHome />;
  if (auth.status === 'signedOut') return <SignIn />;
  // The signed-in shell draws one task after the router's first draw of this route (the loading state meanwhile).
  return (
    <Later fallback={loading}>
      <SignedInShell />
    </Later>
  );
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
  // Signed in again after the session ended in the middle of a purchase: back to that form, filled in as it was (a
  // form kept while the wallet is funded waits for the payment's confirmation: /fund/return leads back to it). A
  // draft a reload left behind is not marked to resume: the address opened is the screen shown.
  useEffect(() => {
    const draft = peekDraft();
    if (draft?.resume && !window.location.pathname.startsWith('/buy')) void navigate({ to: '/buy', search: { service: draft.service } });
  }, [navigate]);
  return (
    <>
      <a className="skip-link" href="#content">
        {t('app.skip')}
      </a>
      <header className="shell-header">
        <div className="shell-start">
          <button
            type="button"
            className="shell-burger"
            onClick={toggle}
            aria-label={t('nav.main')}
            aria-expanded={opened}
            aria-controls="main-nav"
          >
            <span />
            <span />
            <span />
          </button>
          <Link to="/" className="shell-brand">
            {t('app.name')}
          </Link>
        </div>
        {/* The notifications button (its unread count's query) draws in a task of its own: at the header's end, it
            moves nothing. */}
        <Later>
          <NotificationsButton />
        </Later>
      </header>
      {/* The menu (ten router links) draws after the screen's first part: fixed, it moves nothing. */}
      <Later after={2}>
        <nav id="main-nav" className="shell-nav" aria-label={t('nav.main')} data-open={opened || undefined}>
          {NAV.map(([to, label]) => (
            <Link key={to} to={to} className="shell-link" activeOptions={{ exact: to === '/', includeSearch: false }} onClick={close}>
              {t(label)}
            </Link>
          ))}
          <button type="button" className="shell-link" onClick={() => void auth.signOut()}>
            {t('nav.signOut')}
          </button>
        </nav>
      </Later>
      <main id="content" className="shell-main">
        {/* The screen draws one task after the header (the first draw of the signed-in shell was one long task). */}
        <Later>
          <Outlet />
        </Later>
      </main>
      <Suspense fallback={null}>
        <TabBar path={path} onMenu={toggle} menuOpen={opened} />
      </Suspense>
    </>
  );
}

function NotificationsButton() {
  const { t } = useTranslation();
  const unread = useQuery(notificationsQueries.unread());
  const count = unread.data?.unread ?? 0;
  return (
    <Button
      variant="subtle"
      component={Link}
      to="/notifications"
      px="xs"
      leftSection={<BellIcon />}
      aria-label={count > 0 ? `${t('nav.notifications')} ${unreadLabel(count)} ${t('notifications.unreadSuffix')}` : t('nav.notifications')}
      styles={{ inner: { overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      <Text span inherit visibleFrom="sm">
        {t('nav.notifications')}
      </Text>
      {/* A space between the word and the count: the visible text reads as the accessible name begins. */}
      {count > 0 && ' '}
      {count > 0 && (
        <Badge ml={6} color="red" data-testid="unread-badge" styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}>
          {unreadLabel(count)}
        </Badge>
      )}
    </Button>
  );
}

/** The unread count as the badge shows it: the full number up to 99, then "99+". */
export const unreadLabel = (count: number) => (count > 99 ? '99+' : String(count));
