// Every table of the service, re-exported from the module that owns it (the sandbox's own are in sandbox/schema.ts).
// A module adds one line here; a service kind's own tables are in its folder (kinds/<kind>/schema.ts and migrations/).
export * from '../modules/identity/schema.js';
export * from '../ledger/schema.js';
export * from '../jobs/schema.js';
export * from '../http/schema.js';
export * from '../modules/notifications/schema.js';
export * from '../modules/payments/schema.js';
export * from '../modules/kyc/schema.js';
export * from '../modules/security/schema.js';
export * from '../modules/settings/schema.js';
export * from '../modules/marketplace/schema.js';
export * from '../modules/subscriptions/schema.js';
export * from '../modules/support/schema.js';
export * from '../modules/reports/schema.js';
export * from '../modules/receipts/schema.js';
export * from '../modules/schedules/schema.js';
export * from '../modules/beneficiaries/schema.js';
export * from '../modules/growth/schema.js';
export * from '../modules/savings/schema.js';
export * from '../modules/loans/schema.js';
export * from '../modules/vtu/schema.js';
export * from '../modules/customers/schema.js';
export * from '../modules/approvals/schema.js';
export * from '../modules/console/schema.js';
