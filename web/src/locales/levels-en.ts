/** English: the price level section of Rewards (issue 45). */
export const enLevels = {
  levels: {
    title: 'Price level',
    intro: 'Agents and resellers buy data, TV and exam PINs at lower prices.',
    current: 'Your level: {{name}}',
    top: 'You are at the highest level.',
    upgrade: 'Upgrade to {{name}} for {{amount}}',
    granted: '{{name}}: given by the business. Contact support to ask for it.',
    pinFor: 'Enter your PIN to pay {{amount}} for {{name}}',
    done: 'You are now {{name}}.',
  },
};
