// The airtime tab is the buy feature's phone form, one number or several (shared with data: web/src/features/buy).
export { AirtimeBuy as Screen } from '../../BulkBuy';
