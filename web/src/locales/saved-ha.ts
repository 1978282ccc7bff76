/** Hausa: the saved meters, smartcards and betting accounts (typed as Messages where it is spread into ha.ts). */
export const haSaved = {
  saved: {
    list_meter: 'Mitocin da aka ajiye',
    list_smartcard: 'Smartcard da aka ajiye',
    list_betting: 'Asusun caca da aka ajiye',
    save_meter: 'Ajiye wannan mita don gaba',
    save_smartcard: 'Ajiye wannan smartcard don gaba',
    save_betting: 'Ajiye wannan asusun caca don gaba',
    nameHelp: 'Sunan da za ka gane shi da shi, kamar “Shago” ko “Gidan Mama”.',
    nameRequired: 'Shigar da sunan da za a ajiye shi da shi.',
    save: 'Ajiye',
    savedAs: 'An ajiye da suna “{{label}}”.',
  },
};
