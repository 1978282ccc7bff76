import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { KIND_TABS, tabLabel } from './kind-tabs';
import type { BuyService } from './kinds';
import './service-grid.css';

// Each kind's icon is a rule of its own folder's stylesheet (web/src/features/buy/kinds/<kind>/icon.css, found there,
// with its icon.svg): CSS, not the first screens' JavaScript (docs/web-app.md, "Speed").
import.meta.glob('../features/buy/kinds/*/icon.css', { eager: true });

/**
 * The services, one tile each (icon over its label, a link to its buy screen, /buy?service=…), in the tabs' order
 * (app/buy-services.ts's, sorted here: the home screen loads no more): the buy screen's choice of service and the
 * home screen's. `current` is the one the buy screen shows (aria-current).
 */
export function ServiceGrid({ current }: { current?: BuyService }) {
  const { i18n } = useTranslation();
  return (
    <ul className="service-grid">
      {[...KIND_TABS]
        .sort(([, a], [, b]) => a.order - b.order)
        .map(([kind, { service, label }]) => (
          <li key={service}>
            <Link
              to="/buy"
              search={{ service }}
              className="service-tile"
              data-kind={kind}
              aria-current={service === current ? 'page' : undefined}
            >
              <span className="service-icon" />
              <span className="service-label">{tabLabel(label, i18n.language)}</span>
            </Link>
          </li>
        ))}
    </ul>
  );
}
