import { UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';

export const HomeIcon = () => (
  <Icon>
    <path d="M3 11l9-8 9 8" />
    <path d="M5 10v10h14V10" />
  </Icon>
);
export const BuyIcon = () => (
  <Icon>
    <rect x="7" y="2" width="10" height="20" rx="2" />
    <path d="M11 18h2" />
  </Icon>
);
export const FundIcon = () => (
  <Icon>
    <rect x="2" y="6" width="20" height="14" rx="2" />
    <path d="M16 13h2M2 10h20" />
  </Icon>
);
export const HistoryIcon = () => (
  <Icon>
    <path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01" />
  </Icon>
);
export const MenuIcon = () => (
  <Icon>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);

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
    <nav aria-label={t('nav.tabs')} className="tab-bar">
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
    </nav>
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
