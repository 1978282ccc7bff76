/** A markup change's confirmation (MarkupPreview.tsx). */
export const markupPreview = {
  title: 'Confirm the markup',
  close: 'Close',
  noChanges: 'No price changes at provider {{provider}}.',
  changes_one: '{{count}} price change at provider {{provider}} (what customers pay):',
  changes_other: '{{count}} prices change at provider {{provider}} (what customers pay):',
  caption: 'The prices that change, old and new',
  plan: 'Plan',
  wholesale: 'Wholesale',
  oldPrice: 'Old price',
  newPrice: 'New price',
  cancel: 'Cancel',
  setMarkup: 'Set markup',
};
