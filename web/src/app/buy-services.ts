// The services a purchase screen offers: the /buy route's search is typed with them without loading the screen,
// and the screens, drafts and repeat links read them here (not from the router, which imports the screens).
export const BUY_SERVICES = [
  'airtime',
  'data',
  'cable',
  'electricity',
  'betting',
  'exam',
  'esim',
  'social',
  'airtimeCash',
  'flights',
] as const;
export type BuyService = (typeof BUY_SERVICES)[number];
