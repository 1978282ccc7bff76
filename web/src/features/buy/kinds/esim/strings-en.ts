/** English: travel eSIMs: the eSIM tab (new or top-up) and the delivered eSIM on the result screen (issue 32). Its keys are the typed keys of t() (KindStrings, below). */
export const strings = {
  esim: {
    mode: 'New eSIM or top-up',
    new: 'New eSIM',
    topUp: 'Top up my eSIM',
    destination: 'Destination',
    region_europe: 'Europe ({{count}} countries)',
    region_africa: 'Africa ({{count}} countries)',
    region_global: 'Global ({{count}} countries)',
    destinationRequired: 'Choose where you are travelling.',
    plan: 'Data plan',
    planRequired: 'Choose a data plan.',
    esimRequired: 'Choose one of your eSIMs.',
    phoneHelp: 'For the receipt. The eSIM works on your phone abroad; your Nigerian line stays as it is.',
    compatible: 'My phone supports eSIM and is not locked to one network',
    compatibleHelp:
      'Not sure? Dial *#06#: if an EID (32 digits) shows, your phone supports eSIM. Most phones from before 2019 and many low-cost phones do not.',
    compatibleRequired: 'Check that your phone supports eSIM first: an eSIM cannot be moved to another phone once it is installed.',
    days_one: '{{count}} day',
    days_other: '{{count}} days',
    which: 'Which eSIM',
    noneYet: 'You have no eSIM to top up yet. Buy one first.',
    iccid: 'ICCID',
    scan: 'Scan this QR code on the phone that will use the eSIM (Settings → Mobile data → Add eSIM).',
    qrAlt: 'QR code to install your eSIM',
    manual: 'Or enter this activation code by hand:',
    copyCode: 'Copy activation code',
    checkUsage: 'Check data left',
    status: {
      not_installed: 'Not installed yet',
      active: 'Active',
      depleted: 'Data used up',
      expired: 'Expired',
    },
    used: '{{used}} of {{total}} used',
    expires: 'Valid until {{date}}',
  },
};

declare module '../../../../app/kinds' {
  interface KindStrings {
    esim: (typeof strings)['esim'];
  }
}
