/** English: the saved meters, smartcards and betting accounts of the bill forms (issue 29). */
export const enSaved = {
  saved: {
    list_meter: 'Saved meters',
    list_smartcard: 'Saved smartcards',
    list_betting: 'Saved betting accounts',
    save_meter: 'Save this meter for next time',
    save_smartcard: 'Save this smartcard for next time',
    save_betting: 'Save this betting account for next time',
    nameHelp: 'A name you will know it by, like “Shop” or “Mum’s house”.',
    nameRequired: 'Enter a name to save it under.',
    save: 'Save',
    savedAs: 'Saved as “{{label}}”.',
  },
};
