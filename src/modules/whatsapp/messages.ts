import type { WhatsappMessage } from '../../providers/whatsapp.js';

/** The Cloud API's message shapes, cut to its limits (a row title 24, a description 72, a button 20, a body 1024). */
const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

export const text = (body: string): WhatsappMessage => ({ type: 'text', text: { body: cut(body, 4096), preview_url: true } });

export interface Row {
  id: string;
  title: string;
  description?: string;
}

/** An interactive list: one section, at most 10 rows. */
export function list(body: string, button: string, rows: Row[]): WhatsappMessage {
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: cut(body, 1024) },
      action: {
        button: cut(button, 20),
        sections: [
          {
            title: cut(button, 24),
            rows: rows.slice(0, 10).map((r) => ({
              id: r.id,
              title: cut(r.title, 24),
              ...(r.description ? { description: cut(r.description, 72) } : {}),
            })),
          },
        ],
      },
    },
  };
}

/** Interactive reply buttons: at most 3. */
export function buttons(body: string, choices: { id: string; title: string }[]): WhatsappMessage {
  return {
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: cut(body, 1024) },
      action: { buttons: choices.slice(0, 3).map((c) => ({ type: 'reply', reply: { id: c.id, title: cut(c.title, 20) } })) },
    },
  };
}

export const image = (link: string, caption: string): WhatsappMessage => ({ type: 'image', image: { link, caption: cut(caption, 1024) } });
