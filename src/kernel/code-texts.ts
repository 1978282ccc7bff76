import { fill, type NoticeLanguage } from './notices.js';

/**
 * The e-mails and SMS the service writes itself (not notifications): one-time codes and the webhook notice, in the
 * customer's saved language (issue 43). English is the fallback for an address with no account and for a language
 * without texts here (ig). `{{code}}` and the other placeholders are filled by `codeText`.
 */
export interface CodeTexts {
  signInCode: { subject: string; text: string };
  stepUpCode: { subject: string; text: string };
  phoneCode: string;
  sendingNumberCode: string;
  /** `{{mode}}` is webhookModes' word for the endpoint's mode: a test endpoint's owner is told it is the test one. */
  webhookDisabled: { subject: string; text: string };
  webhookModes: { live: string; test: string };
  notMe: string;
}

export const CODE_TEXTS: Record<NoticeLanguage, CodeTexts> = {
  en: {
    signInCode: {
      subject: 'Your sign-in code',
      text: 'Your sign-in code is {{code}}. It expires in 10 minutes. If you did not ask for it, ignore this e-mail.',
    },
    stepUpCode: {
      subject: 'Your security confirmation code',
      text: 'Your confirmation code is {{code}}. It expires in 10 minutes. If you did not ask for it, secure your account now.',
    },
    phoneCode: 'Your verification code is {{code}}. It expires in 10 minutes. Do not share it.',
    sendingNumberCode:
      'Your airtime-to-cash code is {{code}}. It lets you sell airtime from {{phone}} and expires in 10 minutes. Do not share it.',
    webhookDisabled: {
      subject: 'Your {{mode}} webhook endpoint was disabled',
      text: 'We could not deliver events to your {{mode}} endpoint {{url}}: {{reason}}.\n\nIt is disabled now. Fix it, then add it again on the developer page; failed deliveries can be resent from the delivery log.',
    },
    webhookModes: { live: 'live', test: 'test' },
    notMe: "This wasn't me",
  },
  ha: {
    signInCode: {
      subject: 'Lambar shigarka',
      text: 'Lambar shigarka ita ce {{code}}. Za ta ƙare cikin mintuna 10. Idan ba kai ka nema ba, ka yi watsi da wannan imel.',
    },
    stepUpCode: {
      subject: 'Lambar tabbatar da tsaronka',
      text: 'Lambar tabbatarwarka ita ce {{code}}. Za ta ƙare cikin mintuna 10. Idan ba kai ka nema ba, ka kare asusunka yanzu.',
    },
    phoneCode: 'Lambar tabbatarwarka ita ce {{code}}. Za ta ƙare cikin mintuna 10. Kada ka ba kowa ita.',
    sendingNumberCode:
      'Lambarka ta canza katin waya zuwa kuɗi ita ce {{code}}. Tana ba ka damar sayar da katin waya daga {{phone}}, kuma za ta ƙare cikin mintuna 10. Kada ka ba kowa ita.',
    webhookDisabled: {
      subject: 'An kashe adireshin webhook ɗinka na {{mode}}',
      text: 'Ba mu iya isar da abubuwan da suka faru zuwa adireshinka na {{mode}} {{url}} ba: {{reason}}.\n\nAn kashe shi yanzu. Gyara shi, sannan ka sake ƙara shi a shafin masu haɓakawa; ana iya sake tura isarwar da ba su yi nasara ba daga rajistar isarwa.',
    },
    webhookModes: { live: 'gaske', test: 'gwaji' },
    notMe: 'Ba ni ba ne',
  },
  pcm: {
    signInCode: {
      subject: 'Dis na your sign-in code',
      text: 'Your sign-in code na {{code}}. E go expire after 10 minutes. If no be you ask for am, just ignore dis e-mail.',
    },
    stepUpCode: {
      subject: 'Code to confirm say na you',
      text: 'Your confirmation code na {{code}}. E go expire after 10 minutes. If no be you ask for am, secure your account sharp sharp.',
    },
    phoneCode: 'Your verification code na {{code}}. E go expire after 10 minutes. No show anybody.',
    sendingNumberCode:
      'Your airtime-to-cash code na {{code}}. E go make you fit sell airtime from {{phone}} and e go expire after 10 minutes. No show anybody.',
    webhookDisabled: {
      subject: 'We don off your webhook endpoint for {{mode}}',
      text: 'We no fit send events go your endpoint for {{mode}}, {{url}}: {{reason}}.\n\nWe don off am now. Fix am, then add am again for the developer page; you fit resend the ones wey fail from the delivery log.',
    },
    webhookModes: { live: 'real money', test: 'test money' },
    notMe: 'No be me',
  },
  yo: {
    signInCode: {
      subject: 'Kóòdù ìwọlé rẹ',
      text: 'Kóòdù ìwọlé rẹ ni {{code}}. Yóò dópin ní ìṣẹ́jú mẹ́wàá. Tí kì í bá ṣe ìwọ ló béèrè fún un, fojú fo í-meèlì yìí.',
    },
    stepUpCode: {
      subject: 'Kóòdù ìjẹ́rìísí ààbò rẹ',
      text: 'Kóòdù ìjẹ́rìísí rẹ ni {{code}}. Yóò dópin ní ìṣẹ́jú mẹ́wàá. Tí kì í bá ṣe ìwọ ló béèrè fún un, dáàbò bo àkáǹtì rẹ báyìí.',
    },
    phoneCode: 'Kóòdù ìfìdí-múlẹ̀ rẹ ni {{code}}. Yóò dópin ní ìṣẹ́jú mẹ́wàá. Má ṣe fi han ẹnikẹ́ni.',
    sendingNumberCode:
      'Kóòdù rẹ fún pípààrọ̀ káàdì ìpè sí owó ni {{code}}. Ó jẹ́ kí o ta káàdì ìpè láti {{phone}}, yóò sì dópin ní ìṣẹ́jú mẹ́wàá. Má ṣe fi han ẹnikẹ́ni.',
    webhookDisabled: {
      subject: 'A ti pa òpin webhook {{mode}} rẹ',
      text: 'A kò lè fi àwọn ìṣẹ̀lẹ̀ ránṣẹ́ sí òpin {{mode}} rẹ, {{url}}: {{reason}}.\n\nA ti pa á báyìí. Tún un ṣe, lẹ́yìn náà fi kún un padà ní ojú-ewé àwọn olùgbéèlò; o lè tún àwọn tí kò dé fi ránṣẹ́ láti inú àkọsílẹ̀ ìfiránṣẹ́.',
    },
    webhookModes: { live: 'gidi', test: 'ìdánwò' },
    notMe: 'Kì í ṣe èmi',
  },
};

/** The texts of `language`; English for an unknown address (undefined) or a language without texts here. */
export const codeTextsOf = (language: string | null | undefined): CodeTexts =>
  language && language in CODE_TEXTS ? CODE_TEXTS[language as NoticeLanguage] : CODE_TEXTS.en;

/** `text` with its placeholders filled. */
export const codeText = (text: string, values: Record<string, string | number>) => fill(text, values);
