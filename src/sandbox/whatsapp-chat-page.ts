/**
 * The WhatsApp chat emulator's page and its script (src/sandbox/whatsapp-chat.ts serves both). The script builds
 * every message with DOM calls and textContent only, so nothing a message carries is ever read as HTML.
 */
export const CHAT_SCRIPT_PATH = '/sandbox/whatsapp/chat.js';

/** Script from our origin only, fetches to our origin only, images (receipts) from anywhere, the one inline style. */
export const CHAT_CSP =
  "default-src 'none'; base-uri 'none'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; " +
  "img-src 'self' data: http: https:; script-src 'self'; style-src 'unsafe-inline'";

export function chatPage(sendPath: string, messagesPath: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox WhatsApp chat</title>
<style>
*{box-sizing:border-box}body{font-family:system-ui,sans-serif;max-width:30rem;margin:1rem auto;padding:0 .75rem;color:#111}
h1{font-size:1.4rem}h2{font-size:1.05rem;margin:.5rem 0}label{display:block;margin:.5rem 0 .2rem}
input{width:100%;padding:.55rem;font-size:1rem;border:1px solid #666;border-radius:.4rem}
button{padding:.55rem 1rem;font-size:1rem;border-radius:.4rem;border:1px solid #075e54;background:#075e54;color:#fff;cursor:pointer}
button.choice{background:#fff;color:#064d44;width:100%;text-align:left;margin:.25rem 0}
.row{display:flex;gap:.5rem;align-items:flex-end}.row>div{flex:1}
#chat{padding:.5rem;background:#ece5dd;border-radius:.6rem;min-height:16rem;max-height:60vh;overflow-y:auto}#messages{list-style:none;margin:0;padding:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
#chat li{max-width:88%;margin:.35rem 0;padding:.45rem .6rem;border-radius:.5rem;white-space:pre-wrap;word-wrap:break-word;background:#fff}
#chat li.mine{margin-left:auto;background:#d9fdd3}
#chat img{max-width:100%;height:auto;display:block;margin:.25rem 0}
#chat a{color:#0b4f9c}.muted{color:#444;font-size:.9rem}
</style></head><body><main>
<h1>WhatsApp chat</h1>
<form id="who" data-send="${sendPath}" data-messages="${messagesPath}">
<label for="phone">Your WhatsApp number</label><input id="phone" name="phone" inputmode="tel" list="numbers" autocomplete="off" required>
<datalist id="numbers"></datalist>
<label for="name">Your name</label><input id="name" name="name" value="Sandbox customer" maxlength="60">
<p><button id="open" type="submit">Open chat</button></p></form>
<section id="conversation" aria-labelledby="chat-title" hidden>
<h2 id="chat-title">Chat</h2>
<div id="chat" role="log" aria-labelledby="chat-title" tabindex="0"><ol id="messages"></ol></div>
<form id="compose" class="row"><div><label for="message">Message</label><input id="message" name="message" autocomplete="off" maxlength="4096"></div>
<button id="send" type="submit">Send</button></form>
</section>
<p id="status" role="status" class="muted"></p>
<p class="muted">Sandbox only: each message is posted to the WhatsApp webhook as the Cloud API posts it, signed with the sandbox app secret (X-Hub-Signature-256); the replies are the messages the service sent to the Cloud API simulator.</p>
</main><script src="${CHAT_SCRIPT_PATH}"></script></body></html>`;
}

/** The page's behaviour: open a number's chat, send text or a tapped choice, poll the replies once a second. */
export const CHAT_SCRIPT = `'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const who = $('who'), chat = $('chat'), list = $('messages'), status = $('status');
  const sendPath = who.dataset.send, messagesPath = who.dataset.messages;
  let waId = null, after = 0, timer = null, polling = false;

  const remembered = () => { try { return JSON.parse(localStorage.getItem('wa-numbers') || '[]'); } catch { return []; } };
  const showNumbers = () => {
    const numbers = $('numbers'); numbers.textContent = '';
    for (const n of remembered()) { const o = document.createElement('option'); o.value = n; numbers.append(o); }
  };
  const remember = (n) => { try { localStorage.setItem('wa-numbers', JSON.stringify([n, ...remembered().filter((x) => x !== n)].slice(0, 8))); } catch {} };
  const toWaId = (raw) => {
    const d = raw.replace(/[\\s()+-]/g, '');
    if (/^0\\d{10}$/.test(d)) return '234' + d.slice(1);
    return /^\\d{8,15}$/.test(d) ? d : null;
  };

  const bubble = (mine) => {
    const li = document.createElement('li'); if (mine) li.className = 'mine';
    const sr = document.createElement('span'); sr.className = 'sr'; sr.textContent = mine ? 'You: ' : 'Business: '; li.append(sr);
    list.append(li); return li;
  };
  const para = (li, text) => { if (!text) return; const p = document.createElement('div'); linkify(p, text); li.append(p); };
  function linkify(el, text) {
    const parts = String(text).split(/(https?:\\/\\/[^\\s]+)/g);
    parts.forEach((part, i) => {
      if (i % 2 === 0) { el.append(document.createTextNode(part)); return; }
      const a = document.createElement('a'); a.href = part; a.textContent = part; a.target = '_blank'; a.rel = 'noopener'; el.append(a);
    });
  }
  function choices(li, label, items, type) {
    const group = document.createElement('div'); group.setAttribute('role', 'group'); group.setAttribute('aria-label', label || 'Choices');
    for (const it of items) {
      const b = document.createElement('button'); b.type = 'button'; b.className = 'choice';
      b.textContent = it.title + (it.description ? ' — ' + it.description : '');
      b.addEventListener('click', () => send({ reply: { type, id: it.id, title: it.title } }, it.title));
      group.append(b);
    }
    li.append(group);
  }
  function interactive(li, m) {
    if (m.header && m.header.text) { const h = document.createElement('strong'); h.textContent = m.header.text; li.append(h); }
    para(li, m.body && m.body.text);
    if (m.footer && m.footer.text) { const f = document.createElement('div'); f.className = 'muted'; f.textContent = m.footer.text; li.append(f); }
    const action = m.action || {};
    if (m.type === 'list') {
      for (const s of action.sections || []) {
        if (s.title) { const t = document.createElement('div'); t.className = 'muted'; t.textContent = s.title; li.append(t); }
        choices(li, s.title || action.button, s.rows || [], 'list_reply');
      }
    } else if (m.type === 'button') {
      choices(li, 'Reply buttons', (action.buttons || []).map((b) => b.reply || b), 'button_reply');
    }
  }
  function show(message) {
    const b = message.body || {};
    const li = bubble(false);
    if (b.type === 'text') para(li, b.text && b.text.body);
    else if (b.type === 'interactive' && b.interactive) interactive(li, b.interactive);
    else if (b.type === 'image' && b.image) {
      const img = document.createElement('img'); img.src = b.image.link; img.alt = b.image.caption || 'Image'; li.append(img);
      para(li, b.image.caption);
    } else para(li, JSON.stringify(b));
  }

  async function poll() {
    if (!waId || polling) return;
    polling = true;
    const asked = waId;
    try {
      const res = await fetch(messagesPath + '?to=' + encodeURIComponent(asked) + '&after=' + after);
      if (!res.ok || asked !== waId) return;
      const { messages } = await res.json();
      for (const m of messages || []) { after = Math.max(after, m.seq); show(m); }
      if ((messages || []).length) chat.scrollTop = chat.scrollHeight;
    } catch { status.textContent = 'The service did not answer; trying again.'; }
    finally { polling = false; }
  }

  async function send(content, shown) {
    const li = bubble(true); li.append(document.createTextNode(shown)); chat.scrollTop = chat.scrollHeight;
    status.textContent = 'Sending…';
    try {
      const res = await fetch(sendPath, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: waId, name: $('name').value.trim() || 'Sandbox customer', ...content }),
      });
      const answer = await res.json().catch(() => ({}));
      status.textContent = res.ok ? 'Delivered to the webhook.' : 'Not delivered: ' + ((answer.error && answer.error.message) || res.status);
    } catch { status.textContent = 'Not delivered: the service did not answer.'; }
    void poll();
  }

  who.addEventListener('submit', (e) => {
    e.preventDefault();
    const id = toWaId($('phone').value);
    if (!id) { status.textContent = 'Enter a phone number: 080… or 234…'; $('phone').focus(); return; }
    waId = id; after = 0; list.textContent = ''; remember($('phone').value.trim()); showNumbers();
    $('chat-title').textContent = 'Chat as +' + id;
    $('conversation').hidden = false; status.textContent = '';
    history.replaceState(null, '', '?phone=' + encodeURIComponent($('phone').value.trim()));
    clearInterval(timer); timer = setInterval(poll, 1000); void poll();
    $('message').focus();
  });
  $('compose').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('message').value.trim();
    if (!text || !waId) return;
    $('message').value = '';
    void send({ text }, text);
  });

  showNumbers();
  const given = new URLSearchParams(location.search).get('phone');
  if (given) { $('phone').value = given; who.requestSubmit(); }
})();
`;
