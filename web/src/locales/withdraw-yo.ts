import type { enWithdraw } from './withdraw-en';

/** Yoruba: the withdraw screen (the keys of withdraw-en.ts). */
export const yoWithdraw: typeof enWithdraw = {
  withdraw: {
    title: 'Gba owó sí báǹkì',
    needsTier2Title: 'O nílò Ìpele 2',
    needsTier2: 'Gbígba owó sí àkáǹtì báǹkì nílò ìjẹ́rìísí Ìpele 2 (NIN rẹ àti nọ́ńbà fóònù tí a ti jẹ́rìísí).',
    raiseTier: 'Gbé ìpele mi sókè',
    bank: 'Báǹkì',
    accountNumber: 'Nọ́ńbà àkáǹtì (díjíìtì 10)',
    check: 'Ṣàyẹ̀wò àkáǹtì',
    accountName: 'Orúkọ àkáǹtì: {{name}} ({{bank}})',
    amount: 'Iye owó (₦)',
    summary: 'Owó iṣẹ́ àti àpapọ̀',
    fee: 'Owó iṣẹ́',
    total: 'Àpapọ̀ tí yóò kúrò nínú àpamọ́wọ́ rẹ',
    status_pending: 'Owó náà wà lójú ọ̀nà',
    status_success: 'A ti san owó náà',
    status_failed: 'Gbígba owó náà kò yọrí',
    status_reversed: 'Owó náà ti padà',
    body_pending: '{{amount}} ń lọ sọ́dọ̀ {{name}}, {{bank}}. Ojú-ìwé yìí yóò ṣe àtúnṣe fúnra rẹ̀.',
    body_success: 'A ti fi {{amount}} ránṣẹ́ sí {{name}}, {{bank}}.',
    body_failed: 'Báǹkì kò gba owó náà. {{total}} ti padà sínú àpamọ́wọ́ rẹ.',
    body_reversed: 'Báǹkì dá owó náà padà. {{total}} ti padà sínú àpamọ́wọ́ rẹ.',
    balance: 'Owó tó kù nínú àpamọ́wọ́ lẹ́yìn rẹ̀: {{balance}}',
    done: 'Padà sí ilé',
  },
};
