import type { enDevelopers } from './developers-en';

/** Yorùbá: the developer page (the keys of developers-en.ts). */
export const yoDevelopers: typeof enDevelopers = {
  developers: {
    title: 'Àwọn olùgbéejáde',
    intro: 'Kọ́kọ́rọ́ API ń jẹ́ kí ojú-òpó tàbí áàpù rẹ rà nípasẹ̀ wálẹ́ẹ̀tì rẹ. Pa wọ́n mọ́: kọ́kọ́rọ́ ń náwó láìsí PIN rẹ.',
    keys: 'Àwọn kọ́kọ́rọ́ API rẹ',
    none: 'Kò sí kọ́kọ́rọ́ kankan síbẹ̀.',
    create: 'Ṣẹ̀dá kọ́kọ́rọ́',
    name: 'Orúkọ kọ́kọ́rọ́',
    mode: 'Ipò',
    test: 'Ìdánwò (àfarawé, kì í ṣe owó gidi)',
    live: 'Gidi (owó gidi)',
    scopes: 'Ohun tí kọ́kọ́rọ́ náà lè ṣe',
    scope_read: 'Kíkà (wálẹ́ẹ̀tì, rírà, àkójọ ọjà)',
    scope_purchase: 'Rírà (káàdì ìpè, dátà, owó iná)',
    scope_transfer: 'Fi owó ránṣẹ́ sí àwọn míì',
    allowedIps: 'Àwọn àdírẹ́sì tí a gbà láàyè (kò pọndandan, ọ̀kan ní ìlà kọ̀ọ̀kan)',
    dailyLimit: 'Ààlà ìnáwó ojoojúmọ́ ní náírà (kò pọndandan)',
    secretOnce: 'Ṣe àdàkọ kọ́kọ́rọ́ yìí báyìí: ẹ̀ẹ̀kan ṣoṣo la ó fi hàn.',
    copy: 'Ṣe àdàkọ',
    copied: 'A ti ṣe àdàkọ',
    revoke: 'Fagilé',
    roll: 'Yí i padà (èyí àtijọ́ yóò ṣiṣẹ́ fún wákàtí 24 sí i)',
    lastUsed: 'Ìlò tó kẹ́yìn {{date}}',
    neverUsed: 'A kò tíì lò ó rí',
    revoked: 'A ti fagilé e',
    expires: 'Yóò ṣiṣẹ́ títí di {{date}}',
    spent: 'A ti ná {{spent}} nínú {{limit}} lónìí',
    firstPurchase: 'Rírà rẹ àkọ́kọ́',
    firstPurchaseHelp: 'Ṣiṣẹ́ èyí nínú terminal, pẹ̀lú kọ́kọ́rọ́ rẹ dípò $KEY:',
  },
};
