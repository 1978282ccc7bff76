/** Customers: the search (Customers.tsx). */
export const customers = {
  title: 'Customers',
  find: 'Find a customer',
  query: 'E-mail, phone, username, name, reference or account number',
  queryHint: 'At least 3 characters',
  search: 'Search',
  caption: 'Customers matching "{{q}}"',
  empty: 'No customer matches.',
  customer: 'Customer',
  username: 'Username',
  name: 'Name',
  phone: 'Phone',
  tier: 'Tier',
  foundBy: 'Found by',
  status: 'Status',
  joined: 'Joined',
};
