/** The console's shared words (navigation, titles, states): English, the console's only language for now. */
export const common = {
  title: 'Operator console',
  loading: 'Loading',
  notFound: 'Not found',
  notFoundBody: 'The console has no screen at this address.',
  notForRole: 'Not for your role',
  notForRoleBody: 'Your role is not allowed to open this screen: it is for {{roles}}.',
  screenFailed: 'This screen failed',
  tryAgain: 'Try again',
  notOperator: 'Not an operator',
  notOperatorBody: "{{email}} is signed in, but this account is not an operator. The console is for the business's operators only.",
  goToApp: 'Go to the app',
  signOut: 'Sign out',
};
