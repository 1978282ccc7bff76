/** Yorùbá: the saved meters, smartcards and betting accounts (typed as Messages where it is spread into yo.ts). */
export const yoSaved = {
  saved: {
    list_meter: 'Àwọn mítà tí o fi pamọ́',
    list_smartcard: 'Àwọn smartcard tí o fi pamọ́',
    list_betting: 'Àwọn àkáǹtì tẹ́tẹ́ tí o fi pamọ́',
    save_meter: 'Fi mítà yìí pamọ́ fún ìgbà míì',
    save_smartcard: 'Fi smartcard yìí pamọ́ fún ìgbà míì',
    save_betting: 'Fi àkáǹtì tẹ́tẹ́ yìí pamọ́ fún ìgbà míì',
    nameHelp: 'Orúkọ tí o máa fi mọ̀ ọ́n, bíi “Ṣọ́ọ̀bù” tàbí “Ilé Màmá”.',
    nameRequired: 'Tẹ orúkọ tí a ó fi pamọ́ sí.',
    save: 'Fi pamọ́',
    savedAs: 'A ti fi pamọ́ bí “{{label}}”.',
  },
};
