import { AppShell, Badge, Box, Burger, Button, Group, NavLink, ScrollArea, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleQueries } from '../api/queries/admin';
import { useAuth } from '../app/auth';
import { ConsoleLink, type ScreenPath } from './nav';
import { mayCall, OperatorRoles } from './roles';
import { SCREENS, screenOf, screenOpen } from './screens';
import { ConsoleWarnings } from './Warnings';
import { AlertsOnDevice } from './AlertsOnDevice';

const GROUPS = ['overview', 'customers', 'money', 'catalogue', 'engagement', 'system'] as const;

/**
 * How many wait behind a screen of the navigation (issue 44): approvals a second operator can decide, support threads
 * awaiting a reply, open transaction reports. The dashboard's waiting work, polled in the background; the navigation
 * lists only the screens the operator opens (by the roles the service declares, roles.ts).
 */
function useWaiting(roles: readonly string[]): Partial<Record<ScreenPath, number>> {
  const queues = useQuery({ ...consoleQueries.queues(), enabled: mayCall(roles, 'adminDashboardQueues') });
  const q = queues.data;
  return {
    '/console/approvals': q?.approvals.pending ?? 0,
    '/console/support': q?.support.awaitingReply ?? 0,
    '/console/reports': q?.reports.open ?? 0,
  };
}

/**
 * The console's frame: a side navigation on a desktop, a menu behind a button on a phone. It lists the screens the
 * operator's roles open (a screen reached by its address still answers the service's refusal in words).
 */
export function ConsoleLayout({ email, roles, children }: { email: string; roles: readonly string[]; children: ReactNode }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const [opened, { toggle, close }] = useDisclosure();
  const current = screenOf(useRouterState({ select: (s) => s.matches.at(-1)?.fullPath }));
  const screens = Object.entries(SCREENS) as [ScreenPath, (typeof SCREENS)[ScreenPath]][];
  // Mantine slides a closed phone menu off screen; hidden, its links also leave the tab order and screen readers.
  const desktop = useMediaQuery('(min-width: 62em)', true);
  const waiting = useWaiting(roles);
  // On a phone the badges sit behind the menu button: the button carries their sum (the screens this operator opens).
  const waitingInMenu = screens.filter(([, s]) => screenOpen(s, roles)).reduce((n, [key]) => n + (waiting[key] ?? 0), 0);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'md', collapsed: { mobile: !opened } }} padding="md">
      <a className="skip-link" href="#console-content">
        {t('console.layout.skip')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Box pos="relative" hiddenFrom="md">
              <Burger
                opened={opened}
                onClick={toggle}
                size="sm"
                aria-label={waitingInMenu ? t('console.layout.menuWaiting', { n: waitingInMenu }) : t('console.layout.menu')}
                aria-expanded={opened}
                aria-controls="console-nav"
              />
              {waitingInMenu > 0 && !opened && (
                <Badge size="xs" circle pos="absolute" top={-4} right={-8} aria-hidden style={{ pointerEvents: 'none' }}>
                  {waitingInMenu}
                </Badge>
              )}
            </Box>
            <Text fw={700} c="brand.9" td="none" component={ConsoleLink} link={{ to: '/console/' }}>
              {t('console.common.title')}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="sm" c="dimmed">
              {email}
            </Text>
            <Button variant="default" size="xs" onClick={() => void auth.signOut()}>
              {t('console.common.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        id="console-nav"
        p="xs"
        aria-label={t('console.layout.navigation')}
        style={!desktop && !opened ? { display: 'none' } : undefined}
      >
        <ScrollArea type="auto">
          {GROUPS.filter((group) => screens.some(([, s]) => s.group === group && screenOpen(s, roles))).map((group) => (
            <div key={group}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                {t(`console.screens.groups.${group}`)}
              </Text>
              {screens
                .filter(([, s]) => s.group === group && screenOpen(s, roles))
                .map(([key, s]) => {
                  const title = t(`console.screens.titles.${s.title}`);
                  return (
                    <NavLink
                      key={key}
                      component={ConsoleLink}
                      link={{ to: key }}
                      // Read as one name, "Approvals, 2 waiting"; the badge shows the count.
                      label={
                        waiting[key] ? (
                          <>
                            <span aria-hidden>{title}</span>
                            <VisuallyHidden>{t('console.screens.waiting', { title, n: waiting[key] })}</VisuallyHidden>
                          </>
                        ) : (
                          title
                        )
                      }
                      rightSection={
                        waiting[key] ? (
                          <Badge size="sm" aria-hidden>
                            {waiting[key]}
                          </Badge>
                        ) : undefined
                      }
                      active={SCREENS[key] === current}
                      aria-current={SCREENS[key] === current ? 'page' : undefined}
                      onClick={close}
                    />
                  );
                })}
            </div>
          ))}
        </ScrollArea>
        <AlertsOnDevice />
      </AppShell.Navbar>
      <AppShell.Main id="console-content">
        <ConsoleWarnings />
        <OperatorRoles.Provider value={roles}>{children}</OperatorRoles.Provider>
      </AppShell.Main>
    </AppShell>
  );
}
