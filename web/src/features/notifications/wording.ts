import { useTranslation } from 'react-i18next';
import {
  CREDENTIAL_CHANGES,
  MONEY_PARAMS,
  noticeCase,
  type NoticeLanguage,
  type NoticeParams,
  type ServiceNames,
} from '../../../../src/kernel/notices';
import { formatNaira } from '../../app/format';

/**
 * Each service kind's name in a purchase notice, from its own src/modules/vtu/kinds/<kind>/names.ts (the names the
 * service's push, e-mail and SMS use), keyed by its folder, which is the kind's name (the notice's `service`): a kind
 * added later is named here without a line in the app. Loaded with the inbox.
 */
const names = import.meta.glob<ServiceNames>('./*/names.ts', { base: '../../../../src/modules/vtu/kinds', eager: true, import: 'names' });
export const SERVICE_NAMES: ReadonlyMap<string, ServiceNames> = new Map(Object.entries(names).map(([path, n]) => [path.split('/')[1], n]));
const named = (service: unknown) => typeof service === 'string' && SERVICE_NAMES.has(service);

export interface Worded {
  kind?: string;
  params?: NoticeParams;
  title: string;
  body: string;
}

/**
 * A notification's title and body in the reader's language, from its kind and params (issue 29; the service's
 * src/kernel/notices.ts picks the wording case, the same one push, e-mail and SMS are written from). A kind without
 * a wording, a case missing a parameter it needs, or a purchase of a service no kind's folder names, shows the
 * service's English text.
 */
export function useNoticeWording() {
  const { t, i18n } = useTranslation();
  return (n: Worded): { title: string; body: string } => {
    const params: NoticeParams = { ...(n.params ?? {}), text: n.body };
    const c = n.kind ? noticeCase(n.kind, params, named) : null;
    if (!c) return { title: n.title, body: n.body };
    const values: Record<string, string | number> = { ...params };
    for (const [k, v] of Object.entries(params)) {
      if (MONEY_PARAMS.has(k) && typeof v === 'number') values[k] = formatNaira(Math.abs(v));
    }
    const service = typeof params.service === 'string' ? SERVICE_NAMES.get(params.service) : undefined;
    if (service) values.service = service[i18n.language as NoticeLanguage] ?? service.en;
    const change = CREDENTIAL_CHANGES.find((s) => s === params.change);
    if (change) values.change = t(`noticeChange.${change}`);
    return { title: t(`notice.${c}.title`, values), body: t(`notice.${c}.body`, values) };
  };
}
