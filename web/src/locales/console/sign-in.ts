/** The console's sign-in: the operator's e-mail, then the 6-digit code sent to it. */
export const signIn = {
  superseded: 'This session was taken over on another device. Sign in again.',
  intro: 'Sign in with your operator e-mail. We send a 6-digit code to it.',
  email: 'E-mail',
  send: 'Send code',
  sent: 'We sent a code to {{email}}.',
  code: 'Code',
  signIn: 'Sign in',
  another: 'Use another e-mail',
};
