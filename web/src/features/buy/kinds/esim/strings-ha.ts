import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Hausa: travel eSIMs: the eSIM tab (new or top-up) and the delivered eSIM on the result screen (issue 32). */
export const strings: Translation<typeof en> = {
  esim: {
    mode: 'Sabon eSIM ko ƙari',
    new: 'Sabon eSIM',
    topUp: 'Ƙara wa eSIM ɗina',
    destination: 'Inda za ka je',
    region_europe: 'Turai (ƙasashe {{count}})',
    region_africa: 'Afirka (ƙasashe {{count}})',
    region_global: 'Duniya baki ɗaya (ƙasashe {{count}})',
    destinationRequired: 'Zaɓi inda za ka yi tafiya.',
    plan: 'Tsarin data',
    planRequired: 'Zaɓi tsarin data.',
    esimRequired: 'Zaɓi ɗaya daga cikin eSIM ɗinka.',
    phoneHelp: 'Don rasit. eSIM ɗin zai yi aiki a wayarka a ƙasar waje; layinka na Najeriya ba zai canza ba.',
    compatible: 'Wayata tana goyon bayan eSIM kuma ba a kulle ta a kan layi ɗaya ba',
    compatibleHelp:
      'Ba ka tabbata ba? Danna *#06#: idan EID (lambobi 32) ya bayyana, wayarka tana goyon bayan eSIM. Yawancin wayoyin kafin 2019 da wayoyi masu arha da yawa ba sa yi.',
    compatibleRequired: 'Da farko ka tabbata wayarka tana goyon bayan eSIM: ba za a iya mayar da eSIM zuwa wata waya ba bayan an saka shi.',
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
};
