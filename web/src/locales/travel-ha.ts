import type { enTravel } from './travel-en';

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

/** Hausa: travel eSIMs and social services (issue 32). */
export const haTravel: Strings<typeof enTravel> = {
  esim: {
    mode: 'Sabon eSIM ko ƙari',
    new: 'Sabon eSIM',
    topUp: 'Ƙara wa eSIM ɗina',
    destination: 'Inda za ka je',
    destinationRequired: 'Zaɓi inda za ka yi tafiya.',
    plan: 'Tsarin data',
    planRequired: 'Zaɓi tsarin data.',
    esimRequired: 'Zaɓi ɗaya daga cikin eSIM ɗinka.',
    phoneHelp: 'Don rasit. eSIM ɗin zai yi aiki a wayarka a ƙasar waje; layinka na Najeriya ba zai canza ba.',
    days_one: 'Kwana {{count}}',
    days_other: 'Kwanaki {{count}}',
    which: 'Wane eSIM',
    noneYet: 'Ba ka da eSIM da za a ƙara wa tukuna. Ka fara saya ɗaya.',
    iccid: 'ICCID',
    scan: 'Duba wannan lambar QR a wayar da za ta yi amfani da eSIM (Settings → Mobile data → Add eSIM).',
    qrAlt: 'Lambar QR don saka eSIM ɗinka',
    manual: 'Ko ka rubuta wannan lambar kunnawa da hannu:',
    copyCode: 'Kwafi lambar kunnawa',
    checkUsage: 'Duba sauran data',
    status: {
      not_installed: 'Ba a saka shi ba tukuna',
      active: 'Yana aiki',
      depleted: 'Data ya ƙare',
      expired: 'Wa’adinsa ya ƙare',
    },
    used: 'An yi amfani da {{used}} cikin {{total}}',
    expires: 'Yana aiki har {{date}}',
  },
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
