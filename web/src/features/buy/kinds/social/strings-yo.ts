import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Yorùbá: social services: the order tab and its progress on the result screen (issue 32). */
export const strings: Translation<typeof en> = {
  social: {
    service: 'Iṣẹ́',
    serviceRequired: 'Yan iṣẹ́ kan.',
    link: 'Ìjápọ̀',
    linkInvalid: 'Tẹ ìjápọ̀ https ti profaili tàbí ìfìwéránṣẹ́ náà.',
    linkHelp: 'Profaili tàbí ìfìwéránṣẹ́ gbangba, tó bẹ̀rẹ̀ pẹ̀lú https://',
    quantity: 'Iye',
    quantityRange: 'Láti {{min}} sí {{max}}',
    per1000: '{{amount}} fún 1,000 kọ̀ọ̀kan',
    startCount: 'Iye nígbà tí a bẹ̀rẹ̀: {{count}}',
    delivered: 'A ti fi {{delivered}} nínú {{quantity}} ránṣẹ́',
    partRefunded: 'A kò lè fi {{remains}} ránṣẹ́: {{amount}} ti padà sí àpamọ́wọ́ rẹ.',
  },
};
