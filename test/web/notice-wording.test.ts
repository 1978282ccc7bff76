import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { CREDENTIAL_CHANGES, NOTICE_CASES, noticeCase, type NoticeCase } from '../../src/kernel/notices.js';
import { NOTIFICATION_KINDS } from '../../src/modules/notifications/kinds.js';
import { NOTICE_TEXTS, wordNotice as wordWith } from '../../src/modules/notifications/wording/index.js';
import { KINDS } from '../../src/modules/vtu/kinds/index.js';
import { serviceName } from '../../src/modules/vtu/api.js';
import { enNotices as en } from '../../web/src/locales/notices-en.js';
import { haNotices as ha } from '../../web/src/locales/notices-ha.js';
import { pcmNotices as pcm } from '../../web/src/locales/notices-pcm.js';
import { yoNotices as yo } from '../../web/src/locales/notices-yo.js';

// Issue 29: every notification kind the service emits is worded in each of the app's languages, once, in
// src/kernel/notice-texts: the app's inbox and the service's push, e-mail and SMS read the same texts.

/** One notification of each kind as its emitter writes the facts (the sub-cases of a kind each once). */
const EMITTED: [string, Record<string, string | number>][] = [
  ['topup_credited', { amount: 500, reference: 'r', source: 'card' }],
  ['purchase_delivered', { service: 'airtime', amount: 150, recipient: '08031230001', reference: 'r' }],
  ['purchase_delivered', { service: 'electricity', amount: 2000, recipient: '45071234567', token: '1234-5678', units: '12.5' }],
  ['purchase_failed', { service: 'data', amount: 300, recipient: '08031230001' }],
  ['purchase_refunded', { service: 'cable', amount: 4000, recipient: '7012345678' }],
  ['transfer_sent', { amount: 300, to: 'ada' }],
  ['transfer_received', { amount: 300, from: 'tunde' }],
  ['transfer_received', { amount: 300, from: 'tunde', note: 'rent' }],
  ['kyc_decision', { tier: 1, status: 'approved' }],
  ['kyc_decision', { tier: 2, status: 'rejected', reason: 'blurred photo' }],
  ['login_alert', { event: 'new_sign_in', when: '2026-11-26 09:00', browser: 'Chrome', os: 'Android' }],
  ['login_alert', { event: 'new_sign_in', when: '2026-11-26 09:00', browser: 'Chrome', os: 'Android', town: 'Ikeja' }],
  ['login_alert', { event: 'failures', failures: 5 }],
  ...CREDENTIAL_CHANGES.map((change): [string, Record<string, string>] => ['login_alert', { event: 'credential', change, when: 'w' }]),
  ['login_alert', { event: 'credential', change: 'totp_reset_requested', when: 'w', resetAt: 'r' }],
  ['login_alert', { event: 'signed_out', change: 'totp_enrolled' }],
  ['login_alert', { event: 'signed_out', change: 'totp_enrolled', removalAt: 'r' }],
  ['login_alert', { event: 'removal_cancelled' }],
  ['support_reply', { threadId: 't' }],
  ['savings_matured', { total: 10_100, interest: 100 }],
  ['loan_due', { stage: 'soon', outstanding: 5000, dueDate: '2026-12-01' }],
  ['loan_due', { stage: 'overdue', outstanding: 5000, lateFee: 0 }],
  ['loan_due', { stage: 'overdue', outstanding: 5500, lateFee: 500 }],
  ['loan_due', { stage: 'still_overdue', outstanding: 5500 }],
  ['general', { event: 'loan_repaid' }],
  ['general', { event: 'referral_unlocked', amount: 200 }],
  ['general', { event: 'referral_milestone', threshold: 5, amount: 1000 }],
  ['schedule_failed', { service: 'airtime', phone: '08031230001' }],
  ['schedule_failed', { service: 'data', phone: '08031230001', failures: 3 }],
  ['report_resolved', { reference: 'r' }],
  ['order_update', { reference: 'ORD1', status: 'fulfilled' }],
  ['order_update', { reference: 'ORD1', status: 'cancelled' }],
  ['wallet_adjusted', { amount: 1000, reason: 'goodwill' }],
  ['wallet_adjusted', { amount: -1000, reason: 'correction' }],
  ['account_frozen', {}],
  ['account_unfrozen', {}],
  ['general', { event: 'airtime_cash_credited', amount: 800, received: 1000, expected: 1000, network: 'mtn' }],
  ['general', { event: 'airtime_cash_partial', amount: 400, received: 500, expected: 1000, network: 'mtn' }],
  ['general', { event: 'airtime_cash_expired', expected: 1000, network: 'mtn' }],
  ['general', { event: 'flight_cancelled', amount: 76_000, fee: 4000, route: 'LOS-PHC' }],
  ['general', { event: 'withdrawal_paid', amount: 5000, name: 'CHINEDU NWOSU', bank: 'Guaranty Trust Bank' }],
  ['general', { event: 'withdrawal_refunded', amount: 5000, total: 5050, bank: 'Guaranty Trust Bank' }],
];

/**
 * Kinds shown in the words they were written in, with no wording of their own: an operator's broadcast, and an alert
 * written for operators (issue 44).
 */
const OWN_WORDS = new Set(['broadcast', 'operator_alert']);

const WEB = { en, ha, pcm, yo } as const;
/** The service's wording as the composition root wires it: the kinds' names from the VTU module. */
const wordNotice = (language: string | undefined, n: Parameters<typeof wordWith>[1]) => wordWith(language, n, serviceName);
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort();

describe('notification wordings', () => {
  it('every kind the service emits has a wording case, and every case is reached', () => {
    const reached = new Set<NoticeCase>();
    for (const [kind, params] of EMITTED) {
      const c = noticeCase(kind, { ...params, text: 'English body' }, (s) => typeof s === 'string' && serviceName(s, 'en') !== undefined);
      expect(c, `${kind} ${JSON.stringify(params)}`).not.toBeNull();
      reached.add(c!);
    }
    expect(NOTIFICATION_KINDS.filter((k) => !OWN_WORDS.has(k) && !EMITTED.some(([e]) => e === k))).toEqual([]);
    expect(Object.keys(NOTICE_CASES).filter((c) => !reached.has(c as NoticeCase))).toEqual([]);
  });

  for (const [lang, web] of Object.entries(WEB)) {
    it(`${lang}: the app's inbox reads the service's texts, and every case is worded with only its parameters`, () => {
      const server = NOTICE_TEXTS[lang as keyof typeof NOTICE_TEXTS];
      // Written once (src/kernel/notice-texts): the app's locale module re-exports the service's object.
      expect(web).toBe(server);
      for (const [c, needs] of Object.entries(NOTICE_CASES)) {
        const w = server.notice[c as NoticeCase];
        expect(w.title.trim(), `${lang} ${c}`).not.toBe('');
        expect(w.body.trim(), `${lang} ${c}`).not.toBe('');
        const allowed = new Set<string>([...needs, 'text']);
        expect(
          placeholders(w.title + w.body).filter((p) => !allowed.has(p)),
          `${lang} ${c}`,
        ).toEqual([]);
        // A language says what English says: the same facts in the body.
        expect(placeholders(w.body), `${lang} ${c}`).toEqual(placeholders(NOTICE_TEXTS.en.notice[c as NoticeCase].body));
      }
    });
  }

  it('words money, services and changes; a missing fact or an unknown kind keeps the English text', () => {
    const english = { title: 'Airtime delivered', body: 'Your ₦150.00 airtime for 08031230001 was delivered.' };
    const params = { service: 'airtime', amount: 150, recipient: '08031230001' };
    expect(wordNotice('yo', { kind: 'purchase_delivered', ...english, params })).toEqual({
      title: 'A ti fi Káàdì ìpè (airtime) ránṣẹ́',
      body: 'Káàdì ìpè (airtime) ₦150.00 rẹ fún 08031230001 ti dé.',
    });
    expect(wordNotice('pcm', { kind: 'wallet_adjusted', title: 't', body: 'b', params: { amount: -1000, reason: 'fix' } }).body).toBe(
      'Operator remove ₦1,000.00: fix',
    );
    expect(
      wordNotice('ha', { kind: 'login_alert', title: 't', body: 'b', params: { event: 'credential', change: 'phone_changed', when: 'w' } })
        .title,
    ).toBe('Tsaro: An canza lambar wayarka');
    const { recipient: _r, ...partial } = params;
    expect(wordNotice('yo', { kind: 'purchase_delivered', ...english, params: partial })).toEqual(english);
    expect(wordNotice('yo', { kind: 'broadcast', title: 'Hello', body: 'World', params: {} })).toEqual({ title: 'Hello', body: 'World' });
    expect(wordNotice('ig', { kind: 'purchase_delivered', ...english, params }).title).toBe('Airtime delivered');
  });

  it('names every service kind sold in each language: eSIMs, social services and flights too (issue 32)', () => {
    const facts = { amount: 5000, recipient: '08031230001', reference: 'r' };
    const english = { title: 'Delivered', body: 'Delivered.' };
    const named = (lang: string, service: string) =>
      wordNotice(lang, { kind: 'purchase_delivered', ...english, params: { ...facts, service } }).title;
    expect(named('yo', 'esim')).toContain('eSIM ìrìnàjò');
    expect(named('ha', 'flights')).toContain('Tikitin jirgin sama');
    expect(named('pcm', 'social')).toContain('Boost for social media');
    for (const lang of ['en', 'ha', 'pcm', 'yo'])
      for (const { name } of KINDS) expect(named(lang, name), `${lang} ${name}`).not.toBe(english.title);
    // A service no kind sells keeps the English text.
    expect(named('yo', 'lottery')).toBe(english.title);
  });

  it("the app's inbox finds each kind's names where it looks: kinds/<name>/names.ts, its folder named as the kind", async () => {
    // The inbox (web/src/features/notifications/wording.ts) reads every kinds/*/names.ts and keys it by its folder.
    const dir = new URL('../../src/modules/vtu/kinds/', import.meta.url);
    const folders = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && readdirSync(new URL(`${d.name}/`, dir)).includes('names.ts'))
      .map((d) => d.name);
    expect(folders.sort()).toEqual(KINDS.map((k) => k.name).sort());
    for (const k of KINDS) {
      const { names } = (await import(`../../src/modules/vtu/kinds/${k.name}/names.ts`)) as { names: unknown };
      expect(names, k.name).toBe(k.names);
      for (const lang of ['en', 'ha', 'pcm', 'yo'] as const) expect(serviceName(k.name, lang)?.trim(), `${lang} ${k.name}`).toBeTruthy();
    }
  });
});
