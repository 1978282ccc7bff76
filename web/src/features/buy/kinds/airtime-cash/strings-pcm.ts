import type { Translation } from '../../../../app/kinds';
import type { strings as en } from './strings-en';

/** Naijá: airtime to cash (issue 32). */
export const strings: Translation<typeof en> = {
  airtimeCash: {
    intro:
      'Change airtime to wallet money: tell us the number wey you go send from and how much, then send the airtime go the number wey we give you.',
    from: 'Send am from',
    otherNumber: 'Different number…',
    verifyFirst: 'Confirm dis number with the SMS code first.',
    verifyHelp: 'You fit send only from your verified phone or number wey you prove with code wey we text am.',
    sendCode: 'Text me code',
    code: 'Code wey come for SMS',
    verify: 'Confirm the number',
    amount: 'Airtime wey you go send (₦)',
    rate: 'You go get {{rate}}% of the airtime wey land.',
    youGet: 'Your wallet go get {{amount}}',
    youGetLabel: 'Your wallet go get',
    confirmTitle: 'Confirm say you wan change airtime to cash',
    instructionsTitle: 'How you go send your airtime',
    status: { awaiting: 'We dey wait for airtime', credited: 'E don enter', expired: 'E don expire', failed: 'E no possible' },
    failed: 'We no fit take this request. Nothing comot; try again later.',
    send: 'Send {{amount}} {{network}} airtime from {{from}} go the number wey dey below.',
    receivingNumber: 'Send go',
    reference: 'Reference',
    sendBefore: 'Send am before',
    dial: 'Dial this code for the phone wey get the line wey you dey send from:',
    copy: 'Copy',
    copied: 'E don copy',
    pinNote: 'PIN na your SIM airtime transfer PIN, no be your wallet PIN.',
    onlyOnConfirmation: 'Your wallet go collect money once network confirm say the airtime don land, no be before.',
    sent: 'I don send am',
    credited: '{{amount}} don enter your wallet.',
    creditedPartial: 'Na only {{received}} out of {{expected}} land: {{amount}} don enter your wallet.',
    expired: 'No airtime land on time, so nothing enter. You fit ask again.',
    another: 'Change more airtime',
    recent: 'Wetin you ask for recently',
  },
};
