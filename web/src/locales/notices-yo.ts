/**
 * Yoruba notification wordings (issue 29): the inbox words each notification from its kind and params
 * (src/kernel/notices.ts picks the case), with the same texts the service sends by push, e-mail and SMS, written once
 * in src/kernel/notice-texts/.
 */
export { yo as yoNotices } from '../../../src/kernel/notice-texts/yo.js';
