/** English: airtime to cash (issue 32). Its keys are the typed keys of t() (KindStrings, below). */
export const strings = {
  airtimeCash: {
    intro:
      'Turn airtime into wallet money: tell us the number you will send from and how much, then send the airtime to the number we give you.',
    from: 'Send from',
    otherNumber: 'Another number…',
    verifyFirst: 'Verify this number with the SMS code first.',
    verifyHelp: 'You can only send from your verified phone or a number you prove with a code we text to it.',
    sendCode: 'Text me a code',
    code: 'Code from the SMS',
    verify: 'Verify number',
    amount: 'Airtime to send (₦)',
    rate: 'You get {{rate}}% of the airtime received.',
    youGet: 'Your wallet gets {{amount}}',
    youGetLabel: 'Your wallet gets',
    confirmTitle: 'Confirm airtime to cash',
    instructionsTitle: 'How to send your airtime',
    status: { awaiting: 'Waiting for airtime', credited: 'Credited', expired: 'Expired', failed: 'Not possible' },
    failed: 'This request could not be taken. Nothing was sent; try again later.',
    send: 'Send {{amount}} {{network}} airtime from {{from}} to the number below.',
    receivingNumber: 'Send to',
    reference: 'Reference',
    sendBefore: 'Send before',
    dial: 'Dial this code on the phone that holds the sending line:',
    copy: 'Copy',
    copied: 'Copied',
    pinNote: 'PIN is your SIM’s airtime transfer PIN, not your wallet PIN.',
    onlyOnConfirmation: 'Your wallet is credited as soon as the network confirms the airtime arrived, not before.',
    sent: 'I have sent it',
    credited: '{{amount}} was added to your wallet.',
    creditedPartial: 'Only {{received}} of {{expected}} arrived: {{amount}} was added to your wallet.',
    expired: 'No airtime arrived in time, so nothing was credited. You can ask again.',
    another: 'Convert more airtime',
    recent: 'Your recent requests',
  },
};

declare module '../../../../app/kinds' {
  interface KindStrings {
    airtimeCash: (typeof strings)['airtimeCash'];
  }
}
