import type { CREDENTIAL_CHANGES, NOTICE_SERVICES, NoticeCase } from '../notices.js';

/**
 * One language's notification wordings: a title and a body per wording case (src/kernel/notices.ts), the account
 * changes a security notice names and the services a purchase notice names. The app's locales carry the same keys.
 */
export interface NoticeTexts {
  notice: Record<NoticeCase, { title: string; body: string }>;
  noticeChange: Record<(typeof CREDENTIAL_CHANGES)[number], string>;
  noticeService: Record<(typeof NOTICE_SERVICES)[number], string>;
}
