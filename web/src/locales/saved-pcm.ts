/** Pidgin: the saved meters, smartcards and betting accounts (typed as Messages where it is spread into pcm.ts). */
export const pcmSaved = {
  saved: {
    list_meter: 'Meters wey you save',
    list_smartcard: 'Smartcards wey you save',
    list_betting: 'Betting accounts wey you save',
    save_meter: 'Keep dis meter for next time',
    save_smartcard: 'Keep dis smartcard for next time',
    save_betting: 'Keep dis betting account for next time',
    nameHelp: 'Name wey you go take know am, like “Shop” or “Mama house”.',
    nameRequired: 'Put name wey we go save am with.',
    save: 'Save',
    savedAs: 'E don save as “{{label}}”.',
  },
};
