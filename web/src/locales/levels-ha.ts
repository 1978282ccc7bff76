import type { enLevels } from './levels-en';

/** Hausa: the price level section of Rewards (the keys of levels-en.ts). */
export const haLevels: typeof enLevels = {
  levels: {
    title: 'Matakin farashi',
    intro: 'Wakilai da masu sake sayarwa suna sayen data, TV da PIN na jarrabawa a farashi mai rahusa.',
    current: 'Matakinka: {{name}}',
    top: 'Kana a mataki mafi girma.',
    upgrade: 'Haura zuwa {{name}} kan {{amount}}',
    granted: '{{name}}: kamfanin ne ke bayarwa. Tuntuɓi tallafi don nema.',
    pinFor: 'Shigar da PIN ɗinka don biyan {{amount}} don {{name}}',
    done: 'Yanzu kai {{name}} ne.',
  },
};
