import type { enLevels } from './levels-en';

/** Yorùbá: the price level section of Rewards (the keys of levels-en.ts). */
export const yoLevels: typeof enLevels = {
  levels: {
    title: 'Ìpele iye owó',
    intro: 'Àwọn aṣojú àti olùtajà ń ra dátà, TV àti PIN ìdánwò ní iye owó tó dínkù.',
    current: 'Ìpele rẹ: {{name}}',
    top: 'O wà ní ìpele tó ga jùlọ.',
    upgrade: 'Gòkè sí {{name}} fún {{amount}}',
    granted: '{{name}}: ilé-iṣẹ́ ló ń fún ni. Kàn sí ìrànlọ́wọ́ láti béèrè fún un.',
    pinFor: 'Tẹ PIN rẹ láti san {{amount}} fún {{name}}',
    done: 'O ti di {{name}} báyìí.',
  },
};
