import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Naijá: social services: the order tab and its progress on the result screen (issue 32). */
export const strings: Translation<typeof en> = {
  social: {
    service: 'Service',
    serviceRequired: 'Choose service.',
    link: 'Link',
    linkInvalid: 'Put the https link of the profile or post.',
    linkHelp: 'The public profile or post, wey start with https://',
    quantity: 'How many',
    quantityRange: 'From {{min}} reach {{max}}',
    per1000: '{{amount}} for every 1,000',
    startCount: 'Count when we start: {{count}}',
    delivered: '{{delivered}} of {{quantity}} don land',
    partRefunded: '{{remains}} no fit land: {{amount}} don return to your wallet.',
  },
};
