import type { enDevelopers } from './developers-en';

/** Naijá: the developer page (the keys of developers-en.ts). */
export const pcmDevelopers: typeof enDevelopers = {
  developers: {
    title: 'Developers',
    intro: 'API key dey make your own website or app fit buy with your wallet. Hide am well: key dey spend without your PIN.',
    keys: 'Your API keys',
    none: 'No key yet.',
    create: 'Create key',
    name: 'Key name',
    mode: 'Mode',
    test: 'Test (na play, no real money)',
    live: 'Live (real money)',
    scopes: 'Wetin the key fit do',
    scope_read: 'Read (wallet, purchases, catalogue)',
    scope_purchase: 'Buy (airtime, data, bills)',
    scope_transfer: 'Send money give person',
    allowedIps: 'Addresses wey fit use am (no must, one for each line)',
    dailyLimit: 'How much e fit spend for one day, for naira (no must)',
    secretOnce: 'Copy this key now: we go show am only this once.',
    copy: 'Copy',
    copied: 'E don copy',
    revoke: 'Cancel am',
    roll: 'Change am (old key go still work 24 hours)',
    lastUsed: 'Last use {{date}}',
    neverUsed: 'Nobody don use am',
    revoked: 'E don cancel',
    expires: 'E go work reach {{date}}',
    spent: '{{spent}} from {{limit}} don go today',
    firstPurchase: 'Your first purchase',
    firstPurchaseHelp: 'Run this one for terminal, put your key for where $KEY dey:',
  },
};
