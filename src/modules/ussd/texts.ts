import type { NoticeLanguage } from '../../kernel/notices.js';

/**
 * The USSD menu's words in the app's four languages (docs/decisions.md, "USSD"). Every screen is built from these
 * and must fit USSD_SCREEN_MAX characters (menu.ts checks). Amounts are written "N1,000": the GSM character set has
 * no naira sign.
 */
export type UssdLanguage = NoticeLanguage;
export const USSD_LANGUAGES: readonly UssdLanguage[] = ['en', 'ha', 'pcm', 'yo'];
export const LANGUAGE_NAMES: Record<UssdLanguage, string> = { en: 'English', ha: 'Hausa', pcm: 'Pidgin', yo: 'Yoruba' };

export interface UssdTexts {
  menu: string[];
  balance: (amount: string) => string;
  pinFirst: string;
  wrongPin: (left: number) => string;
  pinLocked: (minutes: number) => string;
  pinNotSet: string;
  forWhom: [string, string];
  enterNumber: string;
  badNumber: string;
  enterAmount: (min: number, max: number) => string;
  badAmount: string;
  chooseNetwork: string;
  choosePlan: string;
  more: string;
  back: string;
  noPlans: string;
  noSaved: string;
  chooseSaved: string;
  confirm: (what: string) => string;
  total: string;
  cancelled: string;
  delivered: (what: string, reference: string) => string;
  failed: (what: string) => string;
  willSms: (what: string) => string;
  busy: string;
  history: string;
  noHistory: string;
  chooseLanguage: string;
  invalid: string;
  frozen: string;
  unavailable: string;
  tier: string;
  noFunds: string;
  limit: string;
}

const EN: UssdTexts = {
  menu: ['Balance', 'Airtime', 'Data', 'Pay bill', 'Last 5', 'Language'],
  balance: (a) => `Wallet balance: ${a}`,
  pinFirst: 'Enter your transaction PIN',
  wrongPin: (n) => `Wrong PIN, ${n} ${n === 1 ? 'try' : 'tries'} left. Enter PIN`,
  pinLocked: (m) => `Too many wrong PINs. Try again in ${m} min.`,
  pinNotSet: 'Set a transaction PIN in the app first.',
  forWhom: ['My number', 'Another number'],
  enterNumber: 'Enter the phone number',
  badNumber: 'Not a Nigerian mobile number. Enter the number',
  enterAmount: (min, max) => `Enter amount (N${min}-N${max})`,
  badAmount: 'Amount out of range. Enter amount',
  chooseNetwork: 'Choose network',
  choosePlan: 'Choose plan',
  more: 'More',
  back: 'Back',
  noPlans: 'No plans for this network now.',
  noSaved: 'No saved meter or smartcard. Save one in the app.',
  chooseSaved: 'Pay for',
  confirm: (w) => `${w}\nEnter PIN to pay, 0 to cancel`,
  delivered: (w, r) => `Done: ${w}. Ref ${r}`,
  failed: (w) => `Failed: ${w}. Your wallet was refunded.`,
  willSms: (w) => `Processing: ${w}. We will SMS the result.`,
  total: 'Total',
  cancelled: 'Cancelled.',
  busy: 'We are working on it. We will SMS the result.',
  history: 'Last 5',
  noHistory: 'No transactions yet.',
  chooseLanguage: 'Choose language',
  invalid: 'Invalid choice.',
  frozen: 'Your account is on hold. Contact support.',
  unavailable: 'Service unavailable. Try again later.',
  tier: 'Verify your identity in the app first.',
  noFunds: 'Insufficient balance. Fund your wallet in the app.',
  limit: 'This is over your daily limit.',
};

const HA: UssdTexts = {
  menu: ['Ragowar kudi', 'Katin waya', 'Data', 'Biyan kudi', 'Na karshe 5', 'Harshe'],
  balance: (a) => `Ragowar walat: ${a}`,
  pinFirst: 'Shigar da PIN na biya',
  wrongPin: (n) => `PIN ba daidai ba, saura ${n}. Shigar da PIN`,
  pinLocked: (m) => `PIN ba daidai ba sau da yawa. Sake gwadawa bayan minti ${m}.`,
  pinNotSet: 'Saita PIN na biya a manhaja tukuna.',
  forWhom: ['Lambata', 'Wata lamba'],
  enterNumber: 'Shigar da lambar waya',
  badNumber: 'Ba lambar Najeriya ba ce. Shigar da lamba',
  enterAmount: (min, max) => `Shigar da adadi (N${min}-N${max})`,
  badAmount: 'Adadin bai dace ba. Shigar da adadi',
  chooseNetwork: 'Zabi kamfanin waya',
  choosePlan: 'Zabi tsari',
  more: 'Kari',
  back: 'Koma',
  noPlans: 'Babu tsari na wannan kamfani yanzu.',
  noSaved: 'Babu mita ko smartcard da aka ajiye. Ajiye a manhaja.',
  chooseSaved: 'Biya wa',
  confirm: (w) => `${w}\nShigar da PIN don biya, 0 don fasa`,
  delivered: (w, r) => `An gama: ${w}. Lamba ${r}`,
  failed: (w) => `Bai yi nasara ba: ${w}. An mayar da kudinka.`,
  willSms: (w) => `Ana aiki: ${w}. Za mu aiko sakamakon ta SMS.`,
  total: 'Jimilla',
  cancelled: 'An fasa.',
  busy: 'Muna kan aiki. Za mu aiko sakamakon ta SMS.',
  history: 'Na karshe 5',
  noHistory: 'Babu ciniki tukuna.',
  chooseLanguage: 'Zabi harshe',
  invalid: 'Zabin bai dace ba.',
  frozen: 'An dakatar da asusunka. Tuntubi masu taimako.',
  unavailable: 'Sabis ba ya aiki. Sake gwadawa anjima.',
  tier: 'Tabbatar da kanka a manhaja tukuna.',
  noFunds: 'Kudinka bai isa ba. Saka kudi a manhaja.',
  limit: 'Wannan ya wuce iyakar ka ta yau.',
};

const PCM: UssdTexts = {
  menu: ['My balance', 'Airtime', 'Data', 'Pay for bill', 'My last 5', 'Change language'],
  balance: (a) => `Your wallet get: ${a}`,
  pinFirst: 'Put your transaction PIN',
  wrongPin: (n) => `PIN no correct, ${n} try remain. Put PIN`,
  pinLocked: (m) => `Too many wrong PIN. Try again after ${m} min.`,
  pinNotSet: 'Set transaction PIN for the app first.',
  forWhom: ['Na my number', 'Another person number'],
  enterNumber: 'Put the phone number',
  badNumber: 'Dis no be Naija number. Put the number',
  enterAmount: (min, max) => `Put amount (N${min}-N${max})`,
  badAmount: 'Amount no dey range. Put amount',
  chooseNetwork: 'Pick network',
  choosePlan: 'Pick plan',
  more: 'More',
  back: 'Go back',
  noPlans: 'No plan for dis network now.',
  noSaved: 'You never save meter or smartcard. Save am for the app.',
  chooseSaved: 'Pay for which one',
  confirm: (w) => `${w}\nPut PIN to pay, 0 to cancel`,
  delivered: (w, r) => `E don do: ${w}. Ref ${r}`,
  failed: (w) => `E no work: ${w}. We don return your money.`,
  willSms: (w) => `E dey process: ${w}. We go SMS you the result.`,
  total: 'Total',
  cancelled: 'You don cancel am.',
  busy: 'We dey work on am. We go SMS you the result.',
  history: 'My last 5',
  noHistory: 'No transaction yet.',
  chooseLanguage: 'Pick language',
  invalid: 'Wrong choice.',
  frozen: 'Dem hold your account. Talk to support.',
  unavailable: 'Service no dey now. Try again later.',
  tier: 'Verify yourself for the app first.',
  noFunds: 'Your money no reach. Fund wallet for the app.',
  limit: 'E pass your limit for today.',
};

const YO: UssdTexts = {
  menu: ['Iye owo', 'Kaadi ipe', 'Data', 'San owo', '5 to kehin', 'Ede'],
  balance: (a) => `Owo inu apamowo: ${a}`,
  pinFirst: 'Te PIN isanwo re',
  wrongPin: (n) => `PIN ko to, o ku ${n}. Te PIN`,
  pinLocked: (m) => `PIN ti ko to po ju. Tun gbiyanju ni iseju ${m}.`,
  pinNotSet: 'Seto PIN isanwo ninu app na.',
  forWhom: ['Nomba mi', 'Nomba miran'],
  enterNumber: 'Te nomba foonu',
  badNumber: 'Ki i se nomba Naijiria. Te nomba',
  enterAmount: (min, max) => `Te iye owo (N${min}-N${max})`,
  badAmount: 'Iye owo ko ba a mu. Te iye owo',
  chooseNetwork: 'Yan netiwoki',
  choosePlan: 'Yan eto',
  more: 'Si i',
  back: 'Pada',
  noPlans: 'Ko si eto fun netiwoki yii bayii.',
  noSaved: 'Ko si mita tabi smartcard ti o fipamo. Fi pamo ninu app.',
  chooseSaved: 'Sanwo fun',
  confirm: (w) => `${w}\nTe PIN lati san, 0 lati fagile`,
  delivered: (w, r) => `O ti pari: ${w}. Ref ${r}`,
  failed: (w) => `Ko yori: ${w}. A ti da owo re pada.`,
  willSms: (w) => `O n lo lowo: ${w}. A o fi SMS ran esi si o.`,
  total: 'Apapo',
  cancelled: 'O ti fagile.',
  busy: 'A n sise lori re. A o fi SMS ran esi si o.',
  history: '5 to kehin',
  noHistory: 'Ko si isowo kankan sibe.',
  chooseLanguage: 'Yan ede',
  invalid: 'Yiyan ko to.',
  frozen: 'A ti da apamowo re duro. Kan si atileyin.',
  unavailable: 'Ise ko si lowo bayii. Tun gbiyanju.',
  tier: 'Jerisi ara re ninu app na.',
  noFunds: 'Owo re ko to. Fi owo sinu apamowo ninu app.',
  limit: 'Eyi koja iye ti o le na loni.',
};

const TEXTS: Record<UssdLanguage, UssdTexts> = { en: EN, ha: HA, pcm: PCM, yo: YO };

export const textsOf = (lang: UssdLanguage): UssdTexts => TEXTS[lang];

/** A stored or preferred language the menu speaks, English otherwise (Igbo is the app's fifth, not yet here). */
export const ussdLanguage = (lang: string | null | undefined): UssdLanguage =>
  USSD_LANGUAGES.includes(lang as UssdLanguage) ? (lang as UssdLanguage) : 'en';

/** "N1,500" or "N1,500.50": the GSM alphabet has no naira sign. */
export function nairaText(naira: number): string {
  return `N${naira.toLocaleString('en-NG', { maximumFractionDigits: 2 })}`;
}
