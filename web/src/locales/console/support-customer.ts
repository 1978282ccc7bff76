/** The customer beside a support thread (SupportCustomer.tsx). */
export const supportCustomer = {
  title: 'Customer',
  balance: 'Balance',
  kycTier: 'KYC tier',
  account: 'Account',
  frozenSince: 'Frozen since {{when}}: {{reason}}',
  lastPurchases: 'Last purchases',
  noPurchases: 'No purchases.',
  purchase: '{{service}} to {{recipient}}',
  lastTopUps: 'Last top-ups',
  noTopUps: 'No top-ups.',
  topUp: 'top-up ({{processor}})',
};
