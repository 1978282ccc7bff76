import type { enWithdraw } from './withdraw-en';

/** Hausa: the withdraw screen (the keys of withdraw-en.ts). */
export const haWithdraw: typeof enWithdraw = {
  withdraw: {
    title: 'Cire kuɗi zuwa banki',
    needsTier2Title: 'Ana buƙatar mataki na 2',
    needsTier2: 'Cire kuɗi zuwa asusun banki yana buƙatar tabbatarwa ta mataki na 2 (NIN ɗinka da lambar waya da aka tabbatar).',
    raiseTier: 'Ɗaga matakina',
    bank: 'Banki',
    accountNumber: 'Lambar asusu (lambobi 10)',
    check: 'Duba asusu',
    accountName: 'Sunan asusu: {{name}} ({{bank}})',
    amount: 'Adadi (₦)',
    summary: 'Kuɗin caji da jimilla',
    fee: 'Kuɗin caji',
    total: 'Jimillar da za a cire daga walat ɗinka',
    status_pending: 'Kuɗin suna kan hanya',
    status_success: 'An biya kuɗin',
    status_failed: 'Cire kuɗin bai yi nasara ba',
    status_reversed: 'An dawo da kuɗin',
    body_pending: '{{amount}} yana kan hanyar zuwa {{name}}, {{bank}}. Wannan shafin zai sabunta kansa.',
    body_success: 'An tura {{amount}} zuwa {{name}}, {{bank}}.',
    body_failed: 'Bankin bai karɓi kuɗin ba. {{total}} ya dawo cikin walat ɗinka.',
    body_reversed: 'Bankin ya dawo da kuɗin. {{total}} ya dawo cikin walat ɗinka.',
    balance: 'Ragowar walat bayan cire kuɗi: {{balance}}',
    done: 'Koma gida',
  },
};
