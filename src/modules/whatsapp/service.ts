import { createWhatsappSender } from '../../providers/whatsapp.js';
import { forgetOld } from './conversation.js';
import type { Inbound, WhatsappDeps } from './deps.js';
import { handleInbound } from './inbound.js';
import { createLinkCode, endLink, getLink, unlink } from './links.js';
import { confirmPin, getPinRequest } from './pin.js';
import { lookAgain } from './purchase.js';
import { receiptImage } from './receipt-image.js';

/** The WhatsApp assistant (deps.ts): the webhook's messages, the links, the PIN links, the receipts, the result job. */
export function createWhatsappService(base: Omit<WhatsappDeps, 'sender'>) {
  const { config, upstream } = base;
  const sender = createWhatsappSender({
    apiUrl: config.whatsapp.apiUrl,
    phoneNumberId: config.whatsapp.phoneNumberId,
    token: config.whatsapp.token,
    transport: upstream.send,
  });
  const deps: WhatsappDeps = { ...base, sender };
  return {
    /** Each message of a verified webhook post, in order (a message id taken before is skipped). */
    handle: async (messages: Inbound[]) => {
      for (const m of messages) await handleInbound(deps, m);
    },
    createLinkCode: (userId: string) => createLinkCode(deps, userId),
    getLink: (userId: string) => getLink(deps, userId),
    unlink: (userId: string) => unlink(deps, userId),
    endLink: (userId: string) => endLink(deps, userId),
    getPinRequest: (token: string) => getPinRequest(deps, token),
    confirmPin: (token: string, pin: string) => confirmPin(deps, token, pin),
    receiptImage: (file: string) => receiptImage(deps, file),
    lookAgain: (p: { tokenHash: string; looks: number }) => lookAgain(deps, p),
    forgetOld: () => forgetOld(deps),
  };
}

export type WhatsappService = ReturnType<typeof createWhatsappService>;
