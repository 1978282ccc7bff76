import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Yorùbá: airtime to cash (issue 32). */
export const strings: Translation<typeof en> = {
  airtimeCash: {
    intro:
      'Sọ káàdì ìpè di owó nínú wálẹ́ẹ̀tì: sọ fún wa nọ́ńbà tí o máa fi ránṣẹ́ àti iye rẹ̀, lẹ́yìn náà fi káàdì ìpè ránṣẹ́ sí nọ́ńbà tí a fún ọ.',
    from: 'Fi ránṣẹ́ láti',
    otherNumber: 'Nọ́ńbà mìíràn…',
    verifyFirst: 'Kọ́kọ́ jẹ́rìí nọ́ńbà yìí pẹ̀lú kóòdù SMS.',
    verifyHelp: 'O lè fi ránṣẹ́ láti fóònù rẹ tí a ti jẹ́rìí sí tàbí nọ́ńbà tí o jẹ́rìí pẹ̀lú kóòdù tí a fi ránṣẹ́ sí i nìkan.',
    sendCode: 'Fi kóòdù ránṣẹ́ sí mi',
    code: 'Kóòdù inú SMS',
    verify: 'Jẹ́rìí nọ́ńbà',
    amount: 'Káàdì ìpè tí o máa fi ránṣẹ́ (₦)',
    rate: 'O máa gba {{rate}}% nínú káàdì ìpè tí ó dé.',
    youGet: 'Wálẹ́ẹ̀tì rẹ máa gba {{amount}}',
    youGetLabel: 'Wálẹ́ẹ̀tì rẹ máa gba',
    confirmTitle: 'Jẹ́rìí káàdì ìpè sí owó',
    instructionsTitle: 'Bí o ṣe máa fi káàdì ìpè rẹ ránṣẹ́',
    status: { awaiting: 'À ń dúró de káàdì ìpè', credited: 'Ó ti wọlé', expired: 'Ó ti parí', failed: 'Kò ṣeé ṣe' },
    failed: 'A kò lè gba ìbéèrè yìí. Kò sí ohun tí ó jáde; gbìyànjú lẹ́ẹ̀kan sí i nígbà míì.',
    send: 'Fi káàdì ìpè {{network}} ti {{amount}} ránṣẹ́ láti {{from}} sí nọ́ńbà tí ó wà nísàlẹ̀.',
    receivingNumber: 'Fi ránṣẹ́ sí',
    reference: 'Nọ́ńbà ìtọ́kasí',
    sendBefore: 'Fi ránṣẹ́ ṣáájú',
    dial: 'Tẹ kóòdù yìí lórí fóònù tí ìlà tí o ń fi ránṣẹ́ wà:',
    copy: 'Dà á kọ',
    copied: 'A ti dà á kọ',
    pinNote: 'PIN ni PIN gbígbé káàdì ìpè ti SIM rẹ, kì í ṣe PIN wálẹ́ẹ̀tì rẹ.',
    onlyOnConfirmation: 'Owó máa wọ wálẹ́ẹ̀tì rẹ ní kété tí ilé-iṣẹ́ fóònù bá jẹ́rìí pé káàdì ìpè ti dé, kì í ṣe ṣáájú.',
    sent: 'Mo ti fi ránṣẹ́',
    credited: 'A ti fi {{amount}} sí wálẹ́ẹ̀tì rẹ.',
    creditedPartial: '{{received}} nìkan nínú {{expected}} ló dé: a ti fi {{amount}} sí wálẹ́ẹ̀tì rẹ.',
    expired: 'Kò sí káàdì ìpè tí ó dé lásìkò, nítorí náà kò sí ohun tí ó wọlé. O lè béèrè lẹ́ẹ̀kan sí i.',
    another: 'Sọ káàdì ìpè míì di owó',
    recent: 'Àwọn ìbéèrè rẹ láìpẹ́',
  },
};
