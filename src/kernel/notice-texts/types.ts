import type { CREDENTIAL_CHANGES, NoticeCase } from '../notices.js';

/**
 * One language's notification wordings: a title and a body per wording case (src/kernel/notices.ts) and the account
 * changes a security notice names. The app's locales carry the same keys. A purchase notice's service is named by its
 * kind (src/modules/vtu/kinds/<kind>/names.ts), not here.
 */
export interface NoticeTexts {
  notice: Record<NoticeCase, { title: string; body: string }>;
  noticeChange: Record<(typeof CREDENTIAL_CHANGES)[number], string>;
}
