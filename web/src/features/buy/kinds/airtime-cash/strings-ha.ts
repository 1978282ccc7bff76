import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Hausa: airtime to cash (issue 32). */
export const strings: Translation<typeof en> = {
  airtimeCash: {
    intro:
      'Mayar da katin waya kuɗi a walat: faɗa mana lambar da za ka tura daga ita da adadin, sannan ka tura katin zuwa lambar da muka ba ka.',
    from: 'Tura daga',
    otherNumber: 'Wata lamba…',
    verifyFirst: 'Ka tabbatar da wannan lambar da lambar SMS tukuna.',
    verifyHelp: 'Za ka iya turawa ne kawai daga wayarka da aka tabbatar ko lambar da ka tabbatar da lambar da muka aika mata.',
    sendCode: 'Aiko min da lamba',
    code: 'Lambar da ke cikin SMS',
    verify: 'Tabbatar da lamba',
    amount: 'Katin da za ka tura (₦)',
    rate: 'Za ka samu {{rate}}% na katin da ya iso.',
    youGet: 'Walat ɗinka zai samu {{amount}}',
    youGetLabel: 'Walat ɗinka zai samu',
    confirmTitle: 'Tabbatar da katin waya zuwa kuɗi',
    instructionsTitle: 'Yadda za ka tura katinka',
    status: { awaiting: 'Ana jiran kati', credited: 'An saka', expired: 'Ya ƙare', failed: 'Ba zai yiwu ba' },
    failed: 'Ba a karɓi wannan buƙatar ba. Ba abin da ya fita; sake gwadawa daga baya.',
    send: 'Tura katin {{network}} na {{amount}} daga {{from}} zuwa lambar da ke ƙasa.',
    receivingNumber: 'Tura zuwa',
    reference: 'Lambar shaida',
    sendBefore: 'Tura kafin',
    dial: 'Danna wannan lambar a wayar da ke da layin da za ka tura daga shi:',
    copy: 'Kwafa',
    copied: 'An kwafa',
    pinNote: 'PIN shi ne PIN na tura kati na SIM ɗinka, ba PIN na walat ba.',
    onlyOnConfirmation: 'Za a saka kuɗi a walat ɗinka da zarar kamfanin waya ya tabbatar katin ya iso, ba kafin haka ba.',
    sent: 'Na tura',
    credited: 'An saka {{amount}} a walat ɗinka.',
    creditedPartial: '{{received}} ne kawai cikin {{expected}} ya iso: an saka {{amount}} a walat ɗinka.',
    expired: 'Babu katin da ya iso a kan lokaci, don haka ba a saka komai ba. Kana iya sake nema.',
    another: 'Mayar da ƙarin kati',
    recent: 'Buƙatunka na kwanan nan',
  },
};
