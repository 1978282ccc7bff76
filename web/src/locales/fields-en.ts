/** English: the sentences a form says under a field whose rule is a pattern (sign-in, KYC, settings, orders). */
export const enFields = {
  fields: {
    email: 'Enter your e-mail address, like ada@example.com.',
    identifier: 'Enter your e-mail or username.',
    code: 'Enter the 6-digit code.',
    loginPin: 'Enter a 6-digit login PIN.',
    nin: 'Enter your 11-digit NIN.',
    bank: 'Choose your bank.',
    accountNumber: 'Check the account number: the 10 digits of an account at this bank.',
    closeConfirm: 'Type DELETE in capital letters to close the account.',
    time: 'Enter a time like 07:30.',
    secondFactorCode: 'Enter the 6-digit code from the app, or a recovery code like ABCDE-23456.',
  },
};
