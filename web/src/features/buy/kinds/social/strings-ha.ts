import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Hausa: social services: the order tab and its progress on the result screen (issue 32). */
export const strings: Translation<typeof en> = {
  social: {
    service: 'Sabis',
    serviceRequired: 'Zaɓi sabis.',
    link: 'Mahaɗi',
    linkInvalid: 'Shigar da mahaɗin https na furofayil ko rubutun.',
    linkHelp: 'Furofayil ko rubutu na jama’a, mai farawa da https://',
    quantity: 'Yawa',
    quantityRange: 'Daga {{min}} zuwa {{max}}',
    per1000: '{{amount}} a kowane 1,000',
    startCount: 'Adadi lokacin da muka fara: {{count}}',
    delivered: 'An isar da {{delivered}} cikin {{quantity}}',
    partRefunded: 'Ba a iya isar da {{remains}} ba: an mayar da {{amount}} cikin walat ɗinka.',
  },
};
