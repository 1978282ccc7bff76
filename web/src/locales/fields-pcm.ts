import type { enFields } from './fields-en';

/** Pidgin: the sentences a form says under a field whose rule is a pattern (sign-in, KYC, settings, orders). */
export const pcmFields: typeof enFields = {
  fields: {
    email: 'Put your e-mail address, like ada@example.com.',
    identifier: 'Put your e-mail or username.',
    code: 'Put the 6-digit code.',
    loginPin: 'Put 6-digit login PIN.',
    nin: 'Put your 11-digit NIN.',
    bank: 'Pick your bank.',
    accountNumber: 'Check the account number: na the 10 digits of account for this bank.',
    closeConfirm: 'Type DELETE for capital letters to close the account.',
    time: 'Put time like 07:30.',
    secondFactorCode: 'Put the 6-digit code from the app, or recovery code like ABCDE-23456.',
  },
};
