import { textsOf, type UssdLanguage, type UssdTexts } from '../ussd/api.js';

/**
 * The assistant's words in the app's four languages: the USSD menu's (ussd/texts.ts: the menu, amounts, results,
 * refusals) and the chat's own (linking, the PIN link, buttons). List rows and buttons keep the Cloud API's limits
 * (a row title 24 characters, a button 20).
 */
export interface ChatTexts {
  menu: UssdTexts;
  choose: string;
  open: string;
  notLinked: (signUpUrl: string) => string;
  linked: string;
  badCode: string;
  takenNumber: string;
  unlinked: string;
  pinLink: (what: string, url: string) => string;
  revealLink: (url: string) => string;
  pay: string;
  cancel: string;
  unlinkHint: string;
  working: string;
  receipt: string;
}

const EN: Omit<ChatTexts, 'menu'> = {
  choose: 'What would you like to do?',
  open: 'Menu',
  notLinked: (url) =>
    `This WhatsApp number is not linked to an account. Open the app > Settings > WhatsApp, tap "Link WhatsApp" and send the code here as LINK 123456. No account yet? Sign up at ${url}`,
  linked: 'This number is now linked to your wallet.',
  badCode: 'That code is wrong or has expired. Make a new one in the app: Settings > WhatsApp.',
  takenNumber: 'This number is linked to another account. Unlink it there first.',
  unlinked: 'This number is no longer linked to your wallet.',
  pinLink: (w, url) => `${w}\nConfirm with your PIN on this secure page (one use, 10 minutes):\n${url}\nNever type your PIN in this chat.`,
  revealLink: (url) => `For your security, confirm with your PIN first (one use, 10 minutes):\n${url}`,
  pay: 'Pay',
  cancel: 'Cancel',
  unlinkHint: 'Send UNLINK to unlink this number, MENU for the menu.',
  working: 'We are working on it. The result comes here in WhatsApp.',
  receipt: 'Receipt',
};

const HA: Omit<ChatTexts, 'menu'> = {
  choose: 'Me kake so ka yi?',
  open: 'Jerin zaɓi',
  notLinked: (url) =>
    `Ba a hada wannan lambar WhatsApp da asusu ba. Bude manhaja > Settings > WhatsApp, danna "Link WhatsApp" ka aiko lambar nan kamar LINK 123456. Ba ka da asusu? Yi rajista a ${url}`,
  linked: 'An hada wannan lamba da walat dinka.',
  badCode: 'Lambar ba daidai ba ce ko ta kare. Yi sabuwa a manhaja: Settings > WhatsApp.',
  takenNumber: 'An hada wannan lamba da wani asusu. Cire ta a can tukuna.',
  unlinked: 'An cire wannan lamba daga walat dinka.',
  pinLink: (w, url) => `${w}\nTabbatar da PIN a wannan shafi mai tsaro (sau daya, minti 10):\n${url}\nKada ka rubuta PIN a wannan hira.`,
  revealLink: (url) => `Don tsaro, tabbatar da PIN tukuna (sau daya, minti 10):\n${url}`,
  pay: 'Biya',
  cancel: 'Fasa',
  unlinkHint: 'Aiko UNLINK don cire lambar, MENU don menu.',
  working: 'Muna kan aiki. Sakamakon zai zo nan a WhatsApp.',
  receipt: 'Rasit',
};

const PCM: Omit<ChatTexts, 'menu'> = {
  choose: 'Wetin you wan do?',
  open: 'Menu',
  notLinked: (url) =>
    `Dis WhatsApp number never link to any account. Open the app > Settings > WhatsApp, tap "Link WhatsApp" and send the code here like LINK 123456. You no get account? Sign up for ${url}`,
  linked: 'Dis number don link to your wallet.',
  badCode: 'Dat code no correct or e don expire. Make new one for the app: Settings > WhatsApp.',
  takenNumber: 'Dis number don link to another account. Unlink am there first.',
  unlinked: 'Dis number no dey linked to your wallet again.',
  pinLink: (w, url) =>
    `${w}\nConfirm with your PIN for dis secure page (one time, 10 minutes):\n${url}\nNo ever type your PIN for dis chat.`,
  revealLink: (url) => `For your safety, confirm with your PIN first (one time, 10 minutes):\n${url}`,
  pay: 'Pay',
  cancel: 'Cancel',
  unlinkHint: 'Send UNLINK to unlink dis number, MENU for the menu.',
  working: 'We dey work on am. The result go come here for WhatsApp.',
  receipt: 'Receipt',
};

const YO: Omit<ChatTexts, 'menu'> = {
  choose: 'Kini o fe se?',
  open: 'Akojo',
  notLinked: (url) =>
    `Nomba WhatsApp yii ko ti so mo apamowo kankan. Si app > Settings > WhatsApp, te "Link WhatsApp" ki o fi koodu ranse nibi bi LINK 123456. Ko si apamowo? Foruko sile ni ${url}`,
  linked: 'Nomba yii ti so mo apamowo re.',
  badCode: 'Koodu yen ko to tabi o ti pari. Se tuntun ninu app: Settings > WhatsApp.',
  takenNumber: 'Nomba yii ti so mo apamowo miran. Tu u sile nibe na.',
  unlinked: 'Nomba yii ko so mo apamowo re mo.',
  pinLink: (w, url) => `${w}\nFi PIN re jerisi lori oju-iwe aabo yii (eekan, iseju 10):\n${url}\nMa se te PIN re sinu iwiregbe yii.`,
  revealLink: (url) => `Fun aabo re, fi PIN re jerisi na (eekan, iseju 10):\n${url}`,
  pay: 'San',
  cancel: 'Fagile',
  unlinkHint: 'Fi UNLINK ranse lati tu nomba yii, MENU fun akojo.',
  working: 'A n sise lori re. Esi yoo de ibi ninu WhatsApp.',
  receipt: 'Iwe-eri',
};

const CHAT: Record<UssdLanguage, Omit<ChatTexts, 'menu'>> = { en: EN, ha: HA, pcm: PCM, yo: YO };

export const chatTexts = (lang: UssdLanguage): ChatTexts => ({ ...CHAT[lang], menu: textsOf(lang) });
