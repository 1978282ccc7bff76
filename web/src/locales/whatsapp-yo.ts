import type { enWhatsapp } from './whatsapp-en';

/** Yorùbá: the WhatsApp assistant (the keys of whatsapp-en.ts). */
export const yoWhatsapp: typeof enWhatsapp = {
  whatsapp: {
    title: 'WhatsApp',
    intro:
      'Lo àpamọ́wọ́ rẹ nínú ìjíròrò WhatsApp: iye owó, káàdì ìpè, data àti owó iná tàbí TV. O máa fi PIN rẹ jẹ́rìí ríra kọ̀ọ̀kan lórí ìjápọ̀ tó ní ààbò, kì í ṣe nínú ìjíròrò.',
    notLinked: 'Kò sí nọ́mbà WhatsApp tí a so mọ́ ọ.',
    linked: 'A so mọ́ {{phone}} láti {{time}}.',
    link: 'So WhatsApp pọ̀',
    sendThis: 'Láti nọ́mbà WhatsApp tí o fẹ́ so pọ̀, fi ìfiránṣẹ́ yìí ránṣẹ́ sí {{number}}:',
    codeLabel: 'Ìfiránṣẹ́ tí o máa fi ránṣẹ́',
    expires: 'Kóòdù náà ṣiṣẹ́ lẹ́ẹ̀kan ṣoṣo, títí di {{time}}.',
    open: 'Ṣí WhatsApp pẹ̀lú ìfiránṣẹ́ yìí',
    waiting: 'À ń dúró de ìfiránṣẹ́ rẹ…',
    newCode: 'Gba kóòdù tuntun',
    linkedNow: 'A ti so WhatsApp pọ̀.',
    unlink: 'Yọ WhatsApp kúrò',
    unlinked: 'A ti yọ WhatsApp kúrò.',
    notMe: 'Kì í ṣe èmi',
    notMeHelp:
      'Tí kì í bá ṣe ìwọ lo so nọ́mbà yìí pọ̀, parí ìsopọ̀ náà: gbogbo ẹ̀rọ tó wọlé sí àkọọ́lẹ̀ rẹ ni a máa mú jáde pẹ̀lú. Lẹ́yìn náà wọlé padà kí o sì yí PIN rẹ padà.',
    notMeConfirm: 'Parí ìsopọ̀ náà kí o sì jáde níbi gbogbo',
    pinTitle: 'Jẹ́rìí pẹ̀lú PIN rẹ',
    pinIntro: 'Tẹ PIN ìdúnàádúrà rẹ láti jẹ́rìí ohun tí o béèrè ní WhatsApp. Má ṣe tẹ PIN rẹ sínú ìjíròrò láéláé.',
    total: 'Àpapọ̀: {{amount}}',
    until: 'Ìjápọ̀ yìí ṣiṣẹ́ títí di {{time}}.',
    done: 'Ó ti parí. Padà sí WhatsApp: èsì àti ìwé-ẹ̀rí rẹ wà nínú ìjíròrò.',
    alreadyDone: 'A ti jẹ́rìí ìbéèrè yìí tẹ́lẹ̀. Padà sí WhatsApp fún èsì.',
    expired: 'Ìjápọ̀ yìí ti parí. Bẹ̀rẹ̀ lẹ́ẹ̀kan sí i ní WhatsApp.',
    notFound: 'Ìjápọ̀ yìí kò tọ̀nà. Lo ìjápọ̀ tuntun jùlọ nínú ìjíròrò WhatsApp rẹ.',
  },
};
