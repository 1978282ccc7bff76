import type { ActivityKind } from './activity.js';

/** The languages a statement is written in (issue 43); any other saved language reads English. */
export const STATEMENT_LANGUAGES = ['en', 'ha', 'pcm', 'yo'] as const;
export type StatementLanguage = (typeof STATEMENT_LANGUAGES)[number];

export const statementLanguage = (saved: string | undefined): StatementLanguage =>
  (STATEMENT_LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as StatementLanguage) : 'en';

/** A statement as both files print it: amounts in kobo, dates already in Lagos time. */
export interface Statement {
  language: string;
  texts: StatementTexts;
  accountName: string;
  /** The period's first and last Lagos days, DD/MM/YYYY. */
  from: string;
  to: string;
  generatedAt: string;
  opening: bigint;
  closing: bigint;
  moneyIn: bigint;
  moneyOut: bigint;
  lines: { date: string; details: string; reference: string; amount: bigint; balance: bigint }[];
}

export interface StatementTexts {
  title: string;
  account: string;
  period: string;
  opening: string;
  closing: string;
  moneyIn: string;
  moneyOut: string;
  date: string;
  details: string;
  reference: string;
  amount: string;
  balance: string;
  none: string;
  generated: string;
  page: string;
  /** A line's words by its kind ({service}, {recipient}, {username}, {reason}), as the app's activity list has them. */
  kinds: Record<Exclude<ActivityKind, 'other'>, string>;
}

const en: StatementTexts = {
  title: 'Wallet statement',
  account: 'Account name',
  period: 'Period',
  opening: 'Opening balance',
  closing: 'Closing balance',
  moneyIn: 'Money in',
  moneyOut: 'Money out',
  date: 'Date (Lagos time)',
  details: 'Details',
  reference: 'Reference',
  amount: 'Amount (NGN)',
  balance: 'Balance (NGN)',
  none: 'No transactions in this period.',
  generated: 'Generated',
  page: 'Page',
  kinds: {
    topup: 'Wallet funded',
    dva_credit: 'Bank transfer to your account number',
    purchase: '{service} for {recipient}',
    purchase_refund: 'Refund: {service} for {recipient}',
    transfer_sent: 'Sent to @{username}',
    transfer_received: 'Received from @{username}',
    wallet_debit: 'Wallet debit',
    order: 'Order payment',
    order_refund: 'Order refund',
    savings_lock: 'Savings locked',
    savings_release: 'Savings released',
    loan_disbursement: 'Loan received',
    loan_repayment: 'Loan repayment',
    loan_fee: 'Loan late fee',
    bonus: 'Bonus',
    adjustment: 'Operator adjustment: {reason}',
    airtime_cash: 'Airtime converted to cash',
    withdrawal: 'Withdrawal to bank',
    withdrawal_refund: 'Refund: withdrawal to bank',
  },
};

const ha: StatementTexts = {
  title: 'Bayanin asusun walat',
  account: 'Sunan asusu',
  period: 'Lokaci',
  opening: 'Ragowar farko',
  closing: 'Ragowar ƙarshe',
  moneyIn: 'Kuɗin da suka shigo',
  moneyOut: 'Kuɗin da suka fita',
  date: 'Kwanan wata (lokacin Lagos)',
  details: 'Bayani',
  reference: 'Lambar shaida',
  amount: 'Adadi (NGN)',
  balance: 'Ragowa (NGN)',
  none: "Babu ma'amala a wannan lokaci.",
  generated: 'An samar',
  page: 'Shafi',
  kinds: {
    topup: 'An saka kuɗi a walat',
    dva_credit: 'Tura kuɗi zuwa lambar asusunka',
    purchase: '{service} don {recipient}',
    purchase_refund: 'Mayarwa: {service} don {recipient}',
    transfer_sent: 'An tura zuwa @{username}',
    transfer_received: 'An karɓa daga @{username}',
    wallet_debit: 'Cire kuɗi daga walat',
    order: 'Biyan oda',
    order_refund: 'Mayar da kuɗin oda',
    savings_lock: 'An kulle ajiya',
    savings_release: 'An saki ajiya',
    loan_disbursement: 'An karɓi bashi',
    loan_repayment: 'Biyan bashi',
    loan_fee: 'Tarar jinkirin bashi',
    bonus: 'Kyauta',
    adjustment: "Gyara daga ma'aikaci: {reason}",
    airtime_cash: 'Kati da aka mayar kuɗi',
    withdrawal: 'Cire kuɗi zuwa banki',
    withdrawal_refund: 'Mayar da kuɗin cirewa zuwa banki',
  },
};

const pcm: StatementTexts = {
  title: 'Wallet statement',
  account: 'Account name',
  period: 'Time wey e cover',
  opening: 'Balance for start',
  closing: 'Balance for end',
  moneyIn: 'Money wey enter',
  moneyOut: 'Money wey comot',
  date: 'Date (Lagos time)',
  details: 'Wetin happen',
  reference: 'Reference',
  amount: 'Amount (NGN)',
  balance: 'Balance (NGN)',
  none: 'No transaction for this time.',
  generated: 'We make am',
  page: 'Page',
  kinds: {
    topup: 'Wallet don get money',
    dva_credit: 'Bank transfer enter your account number',
    purchase: '{service} for {recipient}',
    purchase_refund: 'Refund: {service} for {recipient}',
    transfer_sent: 'You send to @{username}',
    transfer_received: 'You collect from @{username}',
    wallet_debit: 'Money comot from wallet',
    order: 'Order payment',
    order_refund: 'Order refund',
    savings_lock: 'Savings don lock',
    savings_release: 'Savings don release',
    loan_disbursement: 'Loan don enter',
    loan_repayment: 'Loan payment',
    loan_fee: 'Loan late charge',
    bonus: 'Bonus',
    adjustment: 'Adjustment by staff: {reason}',
    airtime_cash: 'Airtime wey you change to money',
    withdrawal: 'Money wey you comot go bank',
    withdrawal_refund: 'Bank money wey come back',
  },
};

const yo: StatementTexts = {
  title: 'Àkọsílẹ̀ àpamọ́wọ́',
  account: 'Orúkọ àkáǹtì',
  period: 'Àkókò',
  opening: 'Owó tó wà níbẹ̀rẹ̀',
  closing: 'Owó tó kù lópin',
  moneyIn: 'Owó tó wọlé',
  moneyOut: 'Owó tó jáde',
  date: 'Ọjọ́ (àkókò Lagos)',
  details: 'Àpèjúwe',
  reference: 'Nọ́mbà ìtọ́kasí',
  amount: 'Iye (NGN)',
  balance: 'Owó tó kù (NGN)',
  none: 'Kò sí ìdúnàádúrà ní àkókò yìí.',
  generated: 'A ṣe é ní',
  page: 'Ojú ìwé',
  kinds: {
    topup: 'A fi owó sí àpamọ́wọ́',
    dva_credit: 'Owó tí a fi ránṣẹ́ sí nọ́mbà àkáǹtì rẹ',
    purchase: '{service} fún {recipient}',
    purchase_refund: 'Ìdápadà: {service} fún {recipient}',
    transfer_sent: 'A fi ránṣẹ́ sí @{username}',
    transfer_received: 'A gbà láti ọ̀dọ̀ @{username}',
    wallet_debit: 'Owó tí a yọ kúrò nínú àpamọ́wọ́',
    order: 'Ìsanwó ọjà',
    order_refund: 'Ìdápadà owó ọjà',
    savings_lock: 'A ti tì owó ìpamọ́',
    savings_release: 'A ti tú owó ìpamọ́ sílẹ̀',
    loan_disbursement: 'A gba owó yá',
    loan_repayment: 'Ìsanpadà owó yá',
    loan_fee: 'Owó ìtanràn ìsanpadà tí ó pẹ́',
    bonus: 'Ẹ̀bùn',
    adjustment: 'Àtúnṣe láti ọ̀dọ̀ òṣìṣẹ́: {reason}',
    airtime_cash: 'Káàdì ìpè tí a sọ di owó',
    withdrawal: 'Owó tí a gbà sí báǹkì',
    withdrawal_refund: 'Ìdápadà owó tí a gbà sí báǹkì',
  },
};

export const STATEMENT_TEXTS: Record<StatementLanguage, StatementTexts> = { en, ha, pcm, yo };
