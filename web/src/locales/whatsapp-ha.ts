import type { enWhatsapp } from './whatsapp-en';

/** Hausa: the WhatsApp assistant (the keys of whatsapp-en.ts). */
export const haWhatsapp: typeof enWhatsapp = {
  whatsapp: {
    title: 'WhatsApp',
    intro:
      'Yi amfani da walat ɗinka a hirar WhatsApp: ma’auni, katin waya, data da biyan kuɗi. Kana tabbatar da kowane saye da PIN ɗinka a amintaccen mahaɗi, ba a cikin hira ba.',
    notLinked: 'Babu lambar WhatsApp da aka haɗa.',
    linked: 'An haɗa da {{phone}} tun {{time}}.',
    link: 'Haɗa WhatsApp',
    sendThis: 'Daga lambar WhatsApp da kake so ka haɗa, aika wannan saƙo zuwa {{number}}:',
    codeLabel: 'Saƙon da za a aika',
    expires: 'Lambar tana aiki sau ɗaya, har zuwa {{time}}.',
    open: 'Buɗe WhatsApp da wannan saƙo',
    waiting: 'Muna jiran saƙonka…',
    newCode: 'Karɓi sabuwar lamba',
    linkedNow: 'An haɗa WhatsApp.',
    unlink: 'Cire WhatsApp',
    unlinked: 'An cire WhatsApp.',
    notMe: 'Ba ni ba ne',
    notMeHelp:
      'Idan ba kai ka haɗa wannan lambar ba, kawo ƙarshen haɗin: duk na’urar da ta shiga asusunka za ta fita ita ma. Sannan ka sake shiga ka canza PIN ɗinka.',
    notMeConfirm: 'Kawo ƙarshen haɗin ka fita a ko’ina',
    pinTitle: 'Tabbatar da PIN ɗinka',
    pinIntro: 'Shigar da PIN na mu’amala don tabbatar da abin da ka nema a WhatsApp. Kada ka taɓa rubuta PIN ɗinka a cikin hira.',
    total: 'Jimilla: {{amount}}',
    until: 'Wannan mahaɗin yana aiki har zuwa {{time}}.',
    done: 'An gama. Koma WhatsApp: sakamakon da rasidinka suna cikin hirar.',
    alreadyDone: 'An riga an tabbatar da wannan buƙatar. Koma WhatsApp don ganin sakamakon.',
    expired: 'Wannan mahaɗin ya ƙare. Fara sabo a WhatsApp.',
    notFound: 'Wannan mahaɗin ba daidai ba ne. Yi amfani da sabon mahaɗi a hirarka ta WhatsApp.',
  },
};
