import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../src/lib/address-key.js';
import { OTP_MAX_ATTEMPTS, OTP_REQUESTER_DAILY_CAP } from '../../src/modules/identity/otp.js';
import { IP_IDENTIFIER_MAX_FAILURES } from '../../src/modules/security/login.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { PIN_LOGIN, SEND, VERIFY, postFrom, signInCode } from '../helpers/devices.js';

/**
 * Issue 41: per-address limits count a client, not an address string. An IPv6 subscriber holds a whole /64 and picks
 * a new address in it at will, so every address of one /64 spends one budget; an IPv4 client seen through a dual-stack
 * socket (`::ffff:a.b.c.d`) spends its IPv4 address's budget. Addresses in different /64s keep budgets of their own.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const errorOf = (r: { json(): { error?: { code: string } } }) => r.json().error?.code ?? 'OK';
// Fresh prefixes and addresses per run: route limits may live in a shared Redis across runs.
const word = () => Math.floor(Math.random() * 0xfffe + 1).toString(16);
const net64 = () => `2001:db8:${word()}:${word()}`;
const octet = () => Math.floor(Math.random() * 250) + 1;
const ipv4 = () => `10.${octet()}.${octet()}.${octet()}`;
const email = () => `al${randomUUID().slice(0, 8)}@example.com`;
const wrong = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

describe('addressKey', () => {
  it('keeps IPv4, maps IPv4-mapped and -translated forms to it, and an IPv6 address to its canonical /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(addressKey('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(addressKey('::ffff:a00:1')).toBe('10.0.0.1');
    expect(addressKey('0:0:0:0:0:ffff:0a00:0001')).toBe('10.0.0.1');
    expect(addressKey('::ffff:0:10.0.0.1')).toBe('10.0.0.1');
    expect(addressKey('::ffff:0:a00:1')).toBe('10.0.0.1');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:AAAA:bbbb:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:0:0:1::1')).toBe('2001:db8::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(addressKey('fe80::2')).toBe('fe80::/64');
    expect(addressKey('::1')).toBe('::/64');
    expect(addressKey('::ffff:1:2:3:4')).toBe('0:0:0:ffff::/64');
  });
});

describe('per-address limits count an IPv6 /64 and a mapped IPv4 address as one client (issue 41)', () => {
  it('the route limiter: every address of one /64 spends one budget; the next /64 has its own', async () => {
    const report = (ip: string) =>
      h.app.inject({ method: 'POST', url: '/api/public/login-failed', remoteAddress: ip, payload: { identifier: '@nobody_here' } });
    const net = net64();
    for (let i = 1; i <= 10; i++) expect((await report(`${net}::${i.toString(16)}`)).statusCode).toBe(200);
    expect((await report(`${net}:dead:beef:1:2`)).statusCode).toBe(429);
    expect((await report(`${net64()}::1`)).statusCode).toBe(200);

    const v4 = ipv4();
    for (let i = 0; i < 10; i++) expect((await report(v4)).statusCode).toBe(200);
    expect((await report(`::ffff:${v4}`)).statusCode).toBe(429);
  });

  it('sign-in code guesses: the /64 holds one requester’s tries, and so does an IPv4 address with its mapped form', async () => {
    const net = net64();
    const a = email();
    expect((await postFrom(h, SEND, { email: a }, { ip: `${net}::1` })).statusCode).toBe(200);
    const code = await signInCode(h, a);
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      expect(errorOf(await postFrom(h, VERIFY, { email: a, code: wrong(code, i) }, { ip: `${net}::${(i + 2).toString(16)}` }))).toBe(
        'OTP_INVALID',
      );
    }
    const sameNet = await postFrom(h, VERIFY, { email: a, code }, { ip: `${net}:1:2:3:4` });
    expect(errorOf(sameNet)).toBe('OTP_INVALID');
    expect(sameNet.json().error.message).toMatch(/Too many wrong codes/);
    expect((await postFrom(h, VERIFY, { email: a, code }, { ip: `${net64()}::1` })).statusCode).toBe(200);

    const v4 = ipv4();
    const b = email();
    expect((await postFrom(h, SEND, { email: b }, { ip: v4 })).statusCode).toBe(200);
    const codeB = await signInCode(h, b);
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) await postFrom(h, VERIFY, { email: b, code: wrong(codeB, i) }, { ip: v4 });
    expect((await postFrom(h, VERIFY, { email: b, code: codeB }, { ip: `::ffff:${v4}` })).json().error.message).toMatch(/Too many wrong/);
    expect((await postFrom(h, VERIFY, { email: b, code: codeB }, { ip: ipv4() })).statusCode).toBe(200);
  });

  it('sign-in code sends: the daily cap per requester and identifier holds for the whole /64', async () => {
    const net = net64();
    const to = email();
    const sendFrom = async (ip: string) => {
      const wait = (await postFrom(h, '/_serverFn/getOtpCooldownPublicAuth', { email: to }, { ip })).json().secondsRemaining as number;
      h.clock.advance(wait * 1000);
      return postFrom(h, SEND, { email: to }, { ip });
    };
    for (let i = 1; i <= OTP_REQUESTER_DAILY_CAP; i++) expect((await sendFrom(`${net}::${i.toString(16)}`)).statusCode).toBe(200);
    expect(errorOf(await sendFrom(`${net}:ffff::1`))).toBe('OTP_DAILY_LIMIT');
    expect((await sendFrom(`${net64()}::1`)).statusCode).toBe(200);
  });

  it('the PIN-login pause per address and identifier holds for the whole /64', async () => {
    const net = net64();
    const identifier = `@al_${randomUUID().slice(0, 8).replace(/-/g, '')}`;
    for (let i = 0; i < IP_IDENTIFIER_MAX_FAILURES; i++) {
      expect(errorOf(await postFrom(h, PIN_LOGIN, { identifier, pin: '123456' }, { ip: `${net}::${(i + 1).toString(16)}` }))).not.toBe(
        'RATE_LIMITED',
      );
    }
    expect(errorOf(await postFrom(h, PIN_LOGIN, { identifier, pin: '123456' }, { ip: `${net}:abcd::9` }))).toBe('RATE_LIMITED');
    expect(errorOf(await postFrom(h, PIN_LOGIN, { identifier, pin: '123456' }, { ip: `${net64()}::9` }))).toBe('PIN_LOCKED');
  });
});
