import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';
import { KIND_TABS, tabLabel } from './kind-tabs';
import type { BuyService } from './kinds';
import './service-grid.css';

// The ten icons are a chunk of their own (the home screen's JavaScript budget, docs/web-app.md "Speed"), loaded at
// once: each draws in its box, which keeps its size meanwhile, so nothing moves.
let icons: typeof import('./service-icons').SERVICE_ICONS | undefined;
// (Offline before it loaded: the tiles stay without icons.)
const loading = import('./service-icons').then(
  (m) => (icons = m.SERVICE_ICONS),
  () => icons,
);

/**
 * The services, one tile each (icon over its label, a link to its buy screen, /buy?service=…), in the tabs' order
 * (app/buy-services.ts's, sorted here: the home screen loads no more):
 * the buy screen's choice of service and the home screen's. `current` is the one the buy screen shows (aria-current).
 */
export function ServiceGrid({ current }: { current?: BuyService }) {
  const { i18n } = useTranslation();
  const [, loaded] = useState(icons);
  useEffect(() => void loading.then(loaded), []);
  return (
    <ul className="service-grid">
      {[...KIND_TABS]
        .sort(([, a], [, b]) => a.order - b.order)
        .map(([kind, { service, label }]) => (
          <li key={service}>
            <Link to="/buy" search={{ service }} className="service-tile" aria-current={service === current ? 'page' : undefined}>
              <Icon size={26}>{icons?.has(kind) && <path d={icons.get(kind)} />}</Icon>
              <span className="service-label">{tabLabel(label, i18n.language)}</span>
            </Link>
          </li>
        ))}
    </ul>
  );
}
