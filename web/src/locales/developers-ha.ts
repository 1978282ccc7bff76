import type { enDevelopers } from './developers-en';

/** Hausa: the developer page (the keys of developers-en.ts). */
export const haDevelopers: typeof enDevelopers = {
  developers: {
    title: 'Masu haɓaka manhaja',
    intro:
      'Maɓallan API suna bar shafinka ko manhajarka su saya ta walat ɗinka. Ka ɓoye su: maɓalli yana kashe kuɗi ba tare da PIN ɗinka ba.',
    keys: 'Maɓallan API ɗinka',
    none: 'Babu maɓalli tukuna.',
    create: 'Ƙirƙiri maɓalli',
    name: 'Sunan maɓalli',
    mode: 'Yanayi',
    test: 'Gwaji (kwaikwayo, ba kuɗi na gaske ba)',
    live: 'Na gaske (kuɗi na gaske)',
    scopes: 'Abin da maɓallin zai iya yi',
    scope_read: 'Karantawa (walat, sayayya, jerin kaya)',
    scope_purchase: 'Saya (katin waya, data, kuɗaɗen amfani)',
    scope_transfer: 'Aika kuɗi ga wasu',
    allowedIps: 'Adiresoshin da aka yarda (ba dole ba, ɗaya a kowane layi)',
    dailyLimit: 'Iyakar kashewa a rana, a naira (ba dole ba)',
    secretOnce: 'Kwafi wannan maɓallin yanzu: sau ɗaya kawai ake nuna shi.',
    copy: 'Kwafi',
    copied: 'An kwafa',
    revoke: 'Soke',
    roll: 'Sabunta (tsohon maɓalli zai yi aiki ƙarin awa 24)',
    lastUsed: 'Amfani na ƙarshe {{date}}',
    neverUsed: 'Ba a taɓa amfani da shi ba',
    revoked: 'An soke',
    expires: 'Yana aiki har {{date}}',
    spent: 'An kashe {{spent}} cikin {{limit}} yau',
    firstPurchase: 'Sayayyarka ta farko',
    firstPurchaseHelp: 'Gudanar da wannan a tashar umarni, da maɓallinka a madadin $KEY:',
    testWallet: 'Walat na gwaji: {{balance}}',
    testWalletHelp: 'Maɓallan gwaji suna kashe wannan kuɗin kwaikwayo kawai. Ƙara kaɗan don gwada sayayya.',
    fund: 'Ƙara kuɗin gwaji {{amount}}',
  },
};
