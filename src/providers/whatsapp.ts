import type { HttpTransport } from './http-transport.js';

/**
 * The WhatsApp Business Cloud API's sending side (issue 46): POST {apiUrl}/{phoneNumberId}/messages with the access
 * token, one Cloud API message a call (text, interactive list, interactive buttons, image by link). The sandbox's
 * apiUrl is the built-in simulator (src/sandbox/whatsapp-cloud.ts). A refused call throws.
 */
export type WhatsappMessage =
  | { type: 'text'; text: { body: string; preview_url?: boolean } }
  | {
      type: 'interactive';
      interactive:
        | {
            type: 'list';
            body: { text: string };
            action: { button: string; sections: { title: string; rows: { id: string; title: string; description?: string }[] }[] };
          }
        | { type: 'button'; body: { text: string }; action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] } };
    }
  | { type: 'image'; image: { link: string; caption?: string } };

export interface WhatsappSender {
  /** Sends one message to a WhatsApp number (wa_id: international digits, 2348031234567); the message's id. */
  send(to: string, message: WhatsappMessage): Promise<string>;
}

export interface WhatsappSenderOptions {
  apiUrl: string;
  phoneNumberId: string;
  token: string;
  transport: HttpTransport;
}

export function createWhatsappSender(o: WhatsappSenderOptions): WhatsappSender {
  return {
    async send(to, message) {
      const res = await o.transport(`${o.apiUrl}/${encodeURIComponent(o.phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to, ...message }),
        timeoutMs: 10_000,
        upstream: 'whatsapp:cloud',
      });
      if (res.status < 200 || res.status >= 300) throw new Error(`WhatsApp Cloud API answered ${res.status}: ${res.text.slice(0, 200)}`);
      const id = (JSON.parse(res.text) as { messages?: { id?: string }[] }).messages?.[0]?.id;
      return id ?? '';
    },
  };
}
