/**
 * Strings the translation check (translations.test.ts) accepts when a language writes them as English does: names
 * of brands, networks, products and standards, which every language keeps, and the few words a language shares with
 * English. Keep this short: a sentence never belongs here.
 */
export const SAME_EVERYWHERE = new Set<string>([
  'OK',
  'VTU Wallet',
  'MTN',
  'Airtel',
  'Glo',
  '9mobile',
  'DStv',
  'GOtv',
  'StarTimes',
  'WhatsApp',
  'PIN',
  'NIN',
  'BVN',
  'USSD',
  'eSIM',
  'API',
  'SMS',
  'ICCID',
  'Webhooks',
  // Every language's customers say "data" for mobile internet (the USSD menu's and the service's name).
  'Data',
]);

/** Per language: words it writes as English does. */
export const SAME_IN: Partial<Record<string, ReadonlySet<string>>> = {
  // Naijá takes these words from English as they are.
  pcm: new Set<string>([
    ...['Airtime', 'Amount', 'Balance after', 'Bank', 'Betting', 'Bonus', 'Business', 'Buy', 'Cabin', 'Cable TV', 'Cancel'],
    ...['City', 'Close', 'Confirm', 'Continue', 'Copy', 'Data plan', 'Date', 'Delete', 'Description', 'E-mail', 'Exam'],
    ...['Statement', 'Filter', 'Flight', 'History', 'Home', 'Link', 'Menu', 'Mode', 'More', 'Network', 'NIN slip', 'National ID card'],
    ...['International passport', 'Pay', 'Phone number', 'Plan', 'Product', 'Profile', 'Push', 'Receipt', 'Reference'],
    ...['Save', 'Send', 'Service', 'Settings', 'Share', 'State', 'Status', 'Support', 'Time', 'Title', 'Total'],
    ...['Transaction', 'Transactions', 'Type', 'Units', 'Username', 'Vote', 'You', '{{count}} day', '{{count}} days'],
    ...['{{days}} days', 'Mr', 'Mrs', 'Ms', 'Miss', 'Master'],
  ]),
};
