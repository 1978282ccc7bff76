import type { enPasskeys } from './passkeys-en';

/** Naijá: passkeys (the keys of passkeys-en.ts). */
export const pcmPasskeys: typeof enPasskeys = {
  passkeys: {
    offerTitle: 'You wan use your finger or face?',
    offerBody: 'Sign in and confirm payment with your finger or face, no need to type PIN. Your PIN still dey work.',
    use: 'Use finger or face',
    notNow: 'No be now',
    failed: 'We no fit set up your finger or face. You fit try again for Settings.',
    title: 'Finger or face',
    intro: 'Sign in with your finger or face for this phone, and confirm payment with am if you like.',
    none: 'You never set up finger or face.',
    add: 'Add finger or face',
    added: 'You add am {{time}}',
    lastUsed: 'Last time wey you use am: {{time}}',
    remove: 'Comot {{name}}',
    removed: 'E don comot. E no go sign in or confirm payment again.',
    forPayments: 'Use am for payment',
    forPaymentsHelp: 'Confirm wetin you buy and money wey you send with your finger or face. Your PIN still dey work.',
    pinToTurnOn: 'Put your transaction PIN to on am.',
    notOnThisPhone: 'This phone no get finger or face sign-in.',
    confirm: 'Confirm with finger or face',
    orPin: 'Or put your PIN',
    payFailed: 'Your finger or face no confirm the payment. Try again or put your PIN.',
  },
};
