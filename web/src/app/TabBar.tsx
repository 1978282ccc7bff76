import { AppShell, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BuyIcon, FundIcon, HistoryIcon, HomeIcon, MenuIcon } from './icons';

const TABS = [
  ['/', 'nav.tabHome', HomeIcon],
  ['/buy', 'nav.tabBuy', BuyIcon],
  ['/fund', 'nav.tabFund', FundIcon],
  ['/transactions', 'nav.tabHistory', HistoryIcon],
] as const;

/** Phones: the four places people go most, one thumb away at the bottom, and the full menu behind "More". */
export function TabBar({ path, onMenu, menuOpen }: { path: string; onMenu(): void; menuOpen: boolean }) {
  const { t } = useTranslation();
  return (
    <AppShell.Footer hiddenFrom="sm" component="nav" aria-label={t('nav.tabs')} className="tab-bar">
      {TABS.map(([to, label, TabIcon]) => {
        const active = to === '/' ? path === '/' : path.startsWith(to);
        return (
          <Link key={to} to={to} className="tab" aria-current={active ? 'page' : undefined} data-active={active || undefined}>
            <Tab icon={<TabIcon />} label={t(label)} />
          </Link>
        );
      })}
      <UnstyledButton className="tab" onClick={onMenu} aria-expanded={menuOpen}>
        <Tab icon={<MenuIcon />} label={t('nav.tabMore')} />
      </UnstyledButton>
    </AppShell.Footer>
  );
}

function Tab({ icon, label }: { icon: ReactNode; label: string }) {
  return (
    <>
      {icon}
      <span className="tab-label">{label}</span>
    </>
  );
}
