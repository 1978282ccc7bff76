import type { enPasskeys } from './passkeys-en';

/** Yorùbá: passkeys (the keys of passkeys-en.ts). */
export const yoPasskeys: typeof enPasskeys = {
  passkeys: {
    offerTitle: 'Ṣé o fẹ́ lo ìka tàbí ojú rẹ?',
    offerBody: 'Wọlé kí o sì fìdí ìsanwó múlẹ̀ pẹ̀lú ìka tàbí ojú rẹ dípò títẹ PIN. PIN rẹ ṣì ń ṣiṣẹ́.',
    use: 'Lo ìka tàbí ojú',
    notNow: 'Kì í ṣe báyìí',
    failed: 'A kò lè ṣètò ìka tàbí ojú rẹ. O lè tún gbìyànjú nínú Ètò.',
    title: 'Ìka tàbí ojú',
    intro: 'Wọlé pẹ̀lú ìka tàbí ojú rẹ lórí fóònù yìí, kí o sì fi fìdí ìsanwó múlẹ̀ tí o bá fẹ́.',
    none: 'Kò sí ìka tàbí ojú tí a ṣètò.',
    add: 'Ṣàfikún ìka tàbí ojú',
    added: 'A ṣàfikún rẹ̀ {{time}}',
    lastUsed: 'Ìgbà tó lò ó kẹ́yìn: {{time}}',
    remove: 'Yọ {{name}} kúrò',
    removed: 'A ti yọ ọ́ kúrò. Kò ní wọlé tàbí fìdí ìsanwó múlẹ̀ mọ́.',
    forPayments: 'Lò ó fún ìsanwó',
    forPaymentsHelp: 'Fìdí ríra àti fífi owó ránṣẹ́ múlẹ̀ pẹ̀lú ìka tàbí ojú rẹ. PIN rẹ ṣì ń ṣiṣẹ́.',
    pinToTurnOn: 'Tẹ PIN ìsanwó rẹ láti tan èyí.',
    notOnThisPhone: 'Fóònù yìí kò ní ìwọlé pẹ̀lú ìka tàbí ojú.',
    confirm: 'Fìdí múlẹ̀ pẹ̀lú ìka tàbí ojú',
    orPin: 'Tàbí tẹ PIN rẹ',
    payFailed: 'Ìka tàbí ojú rẹ kò fìdí ìsanwó náà múlẹ̀. Tún gbìyànjú tàbí tẹ PIN rẹ.',
  },
};
