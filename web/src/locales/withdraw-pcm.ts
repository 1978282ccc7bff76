import type { enWithdraw } from './withdraw-en';

/** Nigerian Pidgin: the withdraw screen (the keys of withdraw-en.ts). */
export const pcmWithdraw: typeof enWithdraw = {
  withdraw: {
    title: 'Comot money go bank',
    needsTier2Title: 'You need Tier 2',
    needsTier2: 'To comot money go bank account, you need Tier 2 verification (your NIN and phone number wey dem don confirm).',
    raiseTier: 'Make my tier go up',
    bank: 'Bank',
    accountNumber: 'Account number (na 10 digits)',
    check: 'Check the account',
    accountName: 'Na {{name}} get the account ({{bank}})',
    amount: 'How much (₦)',
    summary: 'Charge and total',
    fee: 'Charge',
    total: 'Total wey go comot from your wallet',
    status_pending: 'The money dey road',
    status_success: 'The money don land',
    status_failed: 'The withdrawal no work',
    status_reversed: 'The money don return',
    body_pending: '{{amount}} dey go {{name}}, {{bank}}. This page go update by itself.',
    body_success: 'We don send {{amount}} go {{name}}, {{bank}}.',
    body_failed: 'The bank no gree collect am. {{total}} don return to your wallet.',
    body_reversed: 'The bank return the money. {{total}} don return to your wallet.',
    balance: 'Wetin remain for wallet after: {{balance}}',
    done: 'Go back home',
  },
};
