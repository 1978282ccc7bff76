import type { enTravel } from './travel-en';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

/** Naijá: travel eSIMs and social services (issue 32). */
export const pcmTravel: Strings<typeof enTravel> = {
  esim: {
    mode: 'New eSIM or top-up',
    new: 'New eSIM',
    topUp: 'Top up my eSIM',
    destination: 'Where you dey go',
    destinationRequired: 'Choose where you dey travel go.',
    plan: 'Data plan',
    planRequired: 'Choose data plan.',
    esimRequired: 'Choose one of your eSIM.',
    phoneHelp: 'For receipt. The eSIM go work for your phone for abroad; your Naija line no go change.',
    days_one: '{{count}} day',
    days_other: '{{count}} days',
    which: 'Which eSIM',
    noneYet: 'You never get eSIM wey you fit top up. Buy one first.',
    iccid: 'ICCID',
    scan: 'Scan this QR code for the phone wey go use the eSIM (Settings → Mobile data → Add eSIM).',
    qrAlt: 'QR code to install your eSIM',
    manual: 'Or type this activation code by hand:',
    copyCode: 'Copy activation code',
    checkUsage: 'Check data wey remain',
    status: {
      not_installed: 'You never install am',
      active: 'E dey work',
      depleted: 'Data don finish',
      expired: 'E don expire',
    },
    used: '{{used}} of {{total}} don use',
    expires: 'E go work reach {{date}}',
  },
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
