import type { enWhatsapp } from './whatsapp-en';

/** Naijá: the WhatsApp assistant (the keys of whatsapp-en.ts). */
export const pcmWhatsapp: typeof enWhatsapp = {
  whatsapp: {
    title: 'WhatsApp',
    intro:
      'Use your wallet for WhatsApp chat: balance, airtime, data and bills. You go confirm every purchase with your PIN for one safe link, no be inside the chat.',
    notLinked: 'No WhatsApp number dey linked.',
    linked: 'E don link to {{phone}} since {{time}}.',
    link: 'Connect WhatsApp',
    sendThis: 'From the WhatsApp number wey you wan link, send this message go {{number}}:',
    codeLabel: 'Message wey you go send',
    expires: 'The code go work one time only, until {{time}}.',
    open: 'Open WhatsApp with dis message',
    waiting: 'We dey wait for your message…',
    newCode: 'Collect new code',
    linkedNow: 'WhatsApp don link.',
    unlink: 'Disconnect WhatsApp',
    unlinked: 'WhatsApp don unlink.',
    notMe: 'No be me',
    notMeHelp:
      'If no be you link this number, end the link: every device wey sign in to your account go sign out too. Then sign in again and change your PIN.',
    notMeConfirm: 'Cut the link and comot for everywhere',
    pinTitle: 'Confirm with your PIN o',
    pinIntro: 'Put your transaction PIN to confirm wetin you ask for for WhatsApp. No ever type your PIN inside the chat.',
    total: 'Total na {{amount}}',
    until: 'This link go work until {{time}}.',
    done: 'E don do. Go back to WhatsApp: the result and your receipt dey the chat.',
    alreadyDone: 'This request don already confirm. Go back to WhatsApp for the result.',
    expired: 'This link don expire. Start again for WhatsApp.',
    notFound: 'This link no correct. Use the newest link for your WhatsApp chat.',
  },
};
