/** Money and dates for en-NG whatever the language (docs/design.md §13): ₦1,234.50, never computed beyond display. */
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dateTime = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

export const formatNaira = (amount: number) => naira.format(amount);
export const formatDateTime = (iso: string | number | Date) => dateTime.format(new Date(iso));
