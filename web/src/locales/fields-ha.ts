import type { enFields } from './fields-en';

/** Hausa: the sentences a form says under a field whose rule is a pattern (sign-in, KYC, settings, orders). */
export const haFields: typeof enFields = {
  fields: {
    email: 'Shigar da adireshin imel ɗinka, kamar ada@example.com.',
    identifier: 'Shigar da imel ko sunan mai amfani.',
    code: 'Shigar da lambar mai lambobi 6.',
    loginPin: 'Shigar da PIN na shiga mai lambobi 6.',
    nin: 'Shigar da NIN ɗinka mai lambobi 11.',
    bank: 'Zaɓi bankinka.',
    accountNumber: 'Duba lambar asusun: lambobi 10 na asusu a wannan bankin.',
    closeConfirm: 'Rubuta DELETE da manyan haruffa don rufe asusun.',
    time: 'Shigar da lokaci kamar 07:30.',
    secondFactorCode: 'Shigar da lambobi 6 daga manhajar, ko lambar dawo da shiga kamar ABCDE-23456.',
  },
};
