import { useTranslation } from 'react-i18next';
import { CREDENTIAL_CHANGES, MONEY_PARAMS, NOTICE_SERVICES, noticeCase, type NoticeParams } from '../../../../src/kernel/notices';
import { formatNaira } from '../../app/format';

export interface Worded {
  kind?: string;
  params?: NoticeParams;
  title: string;
  body: string;
}

/**
 * A notification's title and body in the reader's language, from its kind and params (issue 29; the service's
 * src/kernel/notices.ts picks the wording case, the same one push, e-mail and SMS are written from). A kind without
 * a wording, or a case missing a parameter it needs, shows the service's English text.
 */
export function useNoticeWording() {
  const { t } = useTranslation();
  return (n: Worded): { title: string; body: string } => {
    const params: NoticeParams = { ...(n.params ?? {}), text: n.body };
    const c = n.kind ? noticeCase(n.kind, params) : null;
    if (!c) return { title: n.title, body: n.body };
    const values: Record<string, string | number> = { ...params };
    for (const [k, v] of Object.entries(params)) {
      if (MONEY_PARAMS.has(k) && typeof v === 'number') values[k] = formatNaira(Math.abs(v));
    }
    const service = NOTICE_SERVICES.find((s) => s === params.service);
    if (service) values.service = t(`noticeService.${service}`);
    const change = CREDENTIAL_CHANGES.find((s) => s === params.change);
    if (change) values.change = t(`noticeChange.${change}`);
    return { title: t(`notice.${c}.title`, values), body: t(`notice.${c}.body`, values) };
  };
}
