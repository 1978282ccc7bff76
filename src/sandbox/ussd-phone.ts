import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { USSD_CALLBACK_PATH } from '../modules/ussd/api.js';
import type { Services } from '../platform/services.js';
import { esc } from './processor-simulator-state.js';

/**
 * The USSD phone emulator (issue 46): a page at /sandbox/ussd that dials a code, shows each screen and sends each
 * answer the way Africa's Talking's gateway does: a form post of sessionId, serviceCode, phoneNumber (+234...),
 * networkCode and the answers so far `*`-joined in text, to the real callback (USSD_CALLBACK_PATH) through the
 * app's one transport. No script: each answer is a form post back to this page.
 */
export const USSD_PHONE_PATH = '/sandbox/ussd';
const SERVICE_CODE = '*384*46#';

type PhoneServices = Pick<Services, 'upstream' | 'config'>;

interface Dialled {
  phone: string;
  code: string;
  session: string;
  text: string;
}

const internationalOf = (phone: string) => (/^0\d{10}$/.test(phone) ? `+234${phone.slice(1)}` : phone);

function phonePage(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox USSD phone</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:2rem auto;padding:0 1rem}
.phone{border:3px solid #333;border-radius:1.5rem;padding:1.5rem 1rem;background:#f4f4f0}
#screen{background:#cfe3c8;border:1px solid #7a8f73;padding:.6rem;min-height:9rem;white-space:pre-wrap;font-family:monospace;font-size:.95rem}
label{display:block;margin:.6rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}button{margin:.5rem .25rem 0 0;padding:.5rem 1rem}</style>
</head><body><h1>USSD phone</h1><div class="phone">${body}</div>
<p>Sandbox only: each answer is posted to the USSD callback as Africa's Talking posts it.</p></body></html>`;
}

const hidden = (d: Dialled) =>
  (['phone', 'code', 'session', 'text'] as const).map((k) => `<input type="hidden" name="${k}" value="${esc(d[k])}">`).join('');

function dialForm(phone = '', note = ''): string {
  return `${note ? `<p id="note">${esc(note)}</p>` : ''}<form method="post" action="${USSD_PHONE_PATH}">
<label for="phone">Phone number</label><input id="phone" name="phone" inputmode="tel" value="${esc(phone)}" required>
<label for="code">Code</label><input id="code" name="code" value="${SERVICE_CODE}" required>
<button id="dial" name="action" value="dial" type="submit">Dial</button></form>`;
}

function screenView(d: Dialled, answer: string): string {
  const open = answer.startsWith('CON ');
  const shown = answer.replace(/^(CON|END) /, '');
  if (!open) return `<div id="screen" role="status">${esc(shown)}</div><p id="ended">Session ended.</p>${dialForm(d.phone)}`;
  return `<div id="screen" role="status">${esc(shown)}</div>
<form method="post" action="${USSD_PHONE_PATH}">${hidden(d)}
<label for="answer">Answer</label><input id="answer" name="answer" autocomplete="off" autofocus>
<button id="send" name="action" value="send" type="submit">Send</button>
<button id="cancel" name="action" value="cancel" type="submit" formnovalidate>Cancel</button></form>`;
}

/** One gateway request: the callback's plain-text answer, or what went wrong said as a screen would. */
async function callGateway(services: PhoneServices, d: Dialled): Promise<string> {
  const body = new URLSearchParams({
    sessionId: d.session,
    serviceCode: d.code,
    phoneNumber: internationalOf(d.phone),
    networkCode: '62130',
    text: d.text,
  }).toString();
  const res = await services.upstream.send(`${services.config.publicUrl}${USSD_CALLBACK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    timeoutMs: 20_000,
  });
  return res.status === 200 ? res.text : `END The gateway answered ${res.status}: ${res.text.slice(0, 120)}`;
}

async function act(services: PhoneServices, req: FastifyRequest, reply: FastifyReply) {
  const f = (req.body ?? {}) as Record<string, string | undefined>;
  const phone = (f.phone ?? '').trim();
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
  if (f.action === 'cancel' || !phone) return phonePage(dialForm(phone, phone ? 'Cancelled.' : 'Enter a phone number.'));
  const dialling = f.action === 'dial';
  const d: Dialled = {
    phone,
    code: (f.code ?? SERVICE_CODE).trim() || SERVICE_CODE,
    session: dialling || !f.session ? `ATUid_sandbox_${randomBytes(8).toString('hex')}` : f.session,
    text: dialling ? '' : [f.text, (f.answer ?? '').trim()].filter((x) => x !== undefined && x !== '').join('*'),
  };
  return phonePage(screenView(d, await callGateway(services, d)));
}

export async function registerUssdPhone(app: FastifyInstance, services: PhoneServices) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.get(USSD_PHONE_PATH, async (_req, reply) => reply.type('text/html; charset=utf-8').send(phonePage(dialForm())));
    scope.post(USSD_PHONE_PATH, (req, reply) => act(services, req, reply));
  });
}
