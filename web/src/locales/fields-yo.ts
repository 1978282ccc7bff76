import type { enFields } from './fields-en';

/** Yoruba: the sentences a form says under a field whose rule is a pattern (sign-in, KYC, settings, orders). */
export const yoFields: typeof enFields = {
  fields: {
    email: 'Tẹ àdírẹ́sì ímeèlì rẹ, bíi ada@example.com.',
    identifier: 'Tẹ ímeèlì tàbí orúkọ olùmúlò rẹ.',
    code: 'Tẹ kóòdù oní-nọ́mbà 6.',
    loginPin: 'Tẹ PIN ìwọlé oní-nọ́mbà 6.',
    nin: 'Tẹ NIN rẹ oní-nọ́mbà 11.',
    bank: 'Yan báǹkì rẹ.',
    accountNumber: 'Ṣàyẹ̀wò nọ́mbà àkántì: nọ́mbà 10 ti àkántì kan ní báǹkì yìí.',
    closeConfirm: 'Kọ DELETE ní lẹ́tà ńlá láti pa àkántì náà.',
    time: 'Tẹ àkókò bíi 07:30.',
    secondFactorCode: 'Tẹ kóòdù oníǹọ́mbà 6 láti inú áàpù, tàbí kóòdù ìmúpadàbọ̀sípò bíi ABCDE-23456.',
  },
};
