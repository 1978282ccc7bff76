import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Yorùbá: travel eSIMs: the eSIM tab (new or top-up) and the delivered eSIM on the result screen (issue 32). */
export const strings: Translation<typeof en> = {
  esim: {
    mode: 'eSIM tuntun tàbí àfikún',
    new: 'eSIM tuntun',
    topUp: 'Ṣe àfikún sí eSIM mi',
    destination: 'Ibi tí o ń lọ',
    region_europe: 'Yúróòpù (orílẹ̀-èdè {{count}})',
    region_africa: 'Áfíríkà (orílẹ̀-èdè {{count}})',
    region_global: 'Gbogbo àgbáyé (orílẹ̀-èdè {{count}})',
    destinationRequired: 'Yan ibi tí o ń rìnrìn àjò lọ.',
    plan: 'Ètò dátà',
    planRequired: 'Yan ètò dátà kan.',
    esimRequired: 'Yan ọ̀kan nínú àwọn eSIM rẹ.',
    phoneHelp: 'Fún ìwé-ẹ̀rí. eSIM náà yóò ṣiṣẹ́ lórí fóònù rẹ ní òkè òkun; láìnì Nàìjíríà rẹ kò ní yí padà.',
    compatible: 'Fóònù mi ń lo eSIM, a kò sì tì í mọ́ nẹ́tíwọ̀ọ̀kì kan',
    compatibleHelp:
      'Kò dá ọ lójú? Tẹ *#06#: bí EID (nọ́ńbà 32) bá hàn, fóònù rẹ ń lo eSIM. Ọ̀pọ̀ fóònù ṣáájú 2019 àti ọ̀pọ̀ fóònù olówó pọ́ọ́kú kò lè lò ó.',
    compatibleRequired: 'Kọ́kọ́ rí i dájú pé fóònù rẹ ń lo eSIM: a kò lè gbé eSIM lọ sí fóònù míì lẹ́yìn tí a bá fi sí i.',
    days_one: 'Ọjọ́ {{count}}',
    days_other: 'Ọjọ́ {{count}}',
    which: 'eSIM wo',
    noneYet: 'O kò tíì ní eSIM tí o lè ṣe àfikún sí. Ra ọ̀kan kọ́kọ́.',
    iccid: 'ICCID',
    scan: 'Ṣe àyẹ̀wò kóòdù QR yìí lórí fóònù tí yóò lo eSIM náà (Settings → Mobile data → Add eSIM).',
    qrAlt: 'Kóòdù QR láti fi eSIM rẹ sí fóònù',
    manual: 'Tàbí tẹ kóòdù ìmúṣiṣẹ́ yìí pẹ̀lú ọwọ́:',
    copyCode: 'Da kóòdù ìmúṣiṣẹ́ kọ',
    checkUsage: 'Wo dátà tó kù',
    status: {
      not_installed: 'A kò tíì fi sí fóònù',
      active: 'Ó ń ṣiṣẹ́',
      depleted: 'Dátà ti tán',
      expired: 'Ó ti parí',
    },
    used: 'A ti lo {{used}} nínú {{total}}',
    expires: 'Ó wúlò títí di {{date}}',
  },
};
