/** A purchase's case: the customer's reports of it and the support threads that name it; a thread's reports. */
export const purchaseCase = {
  title: 'Reports and support about {{reference}}',
  none: 'No report or support thread names this purchase.',
  reports: 'Transaction reports',
  reportOf: 'Report of {{when}}',
  resolveBoth: 'Resolve report and thread',
  threads: 'Support threads',
  thread: 'Support thread',
  closeBoth: 'Close thread and resolve its reports',
  resolveTitle: 'Resolve the report',
  note: 'Note to the customer',
  threadsClose: "The customer's open support threads about this purchase close with it.",
  about_one: 'About a report:',
  about_other: 'About reports:',
  closing: '. Closing the thread resolves the open ones.',
};
