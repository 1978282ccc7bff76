/** English: the WhatsApp assistant (issue 46): the settings section that links a number, and the PIN page of a chat's link. */
export const enWhatsapp = {
  whatsapp: {
    title: 'WhatsApp',
    intro:
      'Use your wallet in a WhatsApp chat: balance, airtime, data and bills. You confirm each purchase with your PIN on a secure link, never in the chat.',
    notLinked: 'No WhatsApp number is linked.',
    linked: 'Linked to {{phone}} since {{time}}.',
    link: 'Link WhatsApp',
    sendThis: 'From the WhatsApp number you want to link, send this message to {{number}}:',
    codeLabel: 'Message to send',
    expires: 'The code works once, until {{time}}.',
    open: 'Open WhatsApp with this message',
    waiting: 'Waiting for your message…',
    newCode: 'Get a new code',
    linkedNow: 'WhatsApp is linked.',
    unlink: 'Unlink WhatsApp',
    unlinked: 'WhatsApp is unlinked.',
    notMe: 'This wasn’t me',
    notMeHelp:
      'If you did not link this number, end the link: every device signed in to your account is signed out too. Then sign in again and change your PIN.',
    notMeConfirm: 'End the link and sign out everywhere',
    pinTitle: 'Confirm with your PIN',
    pinIntro: 'Enter your transaction PIN to confirm what you asked for in WhatsApp. Never type your PIN in the chat.',
    total: 'Total: {{amount}}',
    until: 'This link works until {{time}}.',
    done: 'Done. Go back to WhatsApp: the result and your receipt are in the chat.',
    alreadyDone: 'This request is already confirmed. Go back to WhatsApp for the result.',
    expired: 'This link has expired. Start again in WhatsApp.',
    notFound: 'This link is not valid. Use the newest link in your WhatsApp chat.',
  },
};
