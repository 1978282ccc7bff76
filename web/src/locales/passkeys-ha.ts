import type { enPasskeys } from './passkeys-en';

/** Hausa: passkeys (the keys of passkeys-en.ts). */
export const haPasskeys: typeof enPasskeys = {
  passkeys: {
    offerTitle: 'Ka yi amfani da hoton yatsa ko fuska?',
    offerBody: 'Shiga kuma ka tabbatar da biyan kuɗi da hoton yatsa ko fuskarka maimakon rubuta PIN. PIN ɗinka yana aiki har yanzu.',
    use: 'Yi amfani da hoton yatsa ko fuska',
    notNow: 'Ba yanzu ba',
    failed: 'Ba a iya saita hoton yatsa ko fuska ba. Za ka iya sake gwadawa a Saituna.',
    title: 'Hoton yatsa ko fuska',
    intro: 'Shiga da hoton yatsa ko fuskarka a wannan wayar, kuma ka tabbatar da biyan kuɗi da shi idan ka zaɓa.',
    none: 'Ba a saita hoton yatsa ko fuska ba.',
    add: 'Ƙara hoton yatsa ko fuska',
    added: 'An ƙara {{time}}',
    lastUsed: 'Amfani na ƙarshe {{time}}',
    remove: 'Cire {{name}}',
    removed: 'An cire. Ba ya shiga ko tabbatar da biyan kuɗi kuma.',
    forPayments: 'Yi amfani da shi wajen biyan kuɗi',
    forPaymentsHelp: 'Tabbatar da sayayya da aikawa da hoton yatsa ko fuskarka. PIN ɗinka yana aiki har yanzu.',
    pinToTurnOn: 'Shigar da PIN na ma’amala don kunna wannan.',
    notOnThisPhone: 'Wannan wayar ba ta da shiga da hoton yatsa ko fuska.',
    confirm: 'Tabbatar da hoton yatsa ko fuska',
    orPin: 'Ko shigar da PIN ɗinka',
    payFailed: 'Hoton yatsa ko fuskarka bai tabbatar da biyan ba. Sake gwadawa ko shigar da PIN ɗinka.',
  },
};
