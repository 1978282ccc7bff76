import type { enLevels } from './levels-en';

/** Naijá: the price level section of Rewards (the keys of levels-en.ts). */
export const pcmLevels: typeof enLevels = {
  levels: {
    title: 'Which price level',
    intro: 'Agents and resellers dey buy data, TV and exam PIN for cheaper price.',
    current: 'Your level na {{name}}',
    top: 'You don reach the highest level.',
    upgrade: 'Upgrade go {{name}} for {{amount}}',
    granted: '{{name}}: na the business dey give am. Contact support to ask for am.',
    pinFor: 'Put your PIN to pay {{amount}} for {{name}}',
    done: 'You don be {{name}} now.',
  },
};
