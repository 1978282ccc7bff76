import { notify } from '../helpers/notices.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createECDH, randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import { lookup } from 'node:dns/promises';
import { sql } from 'drizzle-orm';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';
import { isPublicAddress, systemResolver } from '../../src/lib/public-address.js';

/**
 * SSRF through push subscriptions. The endpoint's host is resolved and every address must be
 * public, when the subscription is saved and again when a push is delivered, and the connection goes to the checked
 * address. Tests use a resolver they control (and the machine's own DNS for its host name).
 */
const ecdh = createECDH('prime256v1');
ecdh.generateKeys();
const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local, shared, benchmarking, documentation, multicast, reserved and embedded forms', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '198.18.0.1',
      '192.0.2.1',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12::1',
      'fec0::1',
      'ff02::1',
      '2001:db8::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '64:ff9b:1::7f00:1',
      '2002:7f00:1::1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      expect(isPublicAddress(ip), ip).toBe(true);
  });
});

describe('push subscriptions', () => {
  let h: Harness;
  let u: TestUser;
  const names = new Map<string, string[]>([
    ['push.public.test', ['93.184.215.14']],
    ['loopback.attacker.test', ['127.0.0.1']],
    ['internal.attacker.test', ['10.0.0.5']],
    ['mixed.attacker.test', ['93.184.215.14', '10.0.0.5']],
    ['mapped.attacker.test', ['::ffff:127.0.0.1']],
    ['nat64.attacker.test', ['64:ff9b::7f00:1']],
    ['metadata.attacker.test', ['169.254.169.254']],
  ]);
  const resolver = async (host: string) => {
    const a = names.get(host);
    if (!a) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: net.isIP(address) }));
  };
  const save = (endpoint: string) =>
    call(h, 'POST', '/_serverFn/savePushSubscriptionBearerPush', { endpoint, ...keys }, { token: u.token });

  beforeAll(async () => {
    h = await createHarness({ overrides: { resolver } });
    u = await signIn(h);
  });
  afterAll(async () => h.close());

  it('refuses endpoints whose host resolves to any non-public address, and the literal forms of the finding', async () => {
    for (const host of [
      'loopback.attacker.test',
      'internal.attacker.test',
      'mixed.attacker.test',
      'mapped.attacker.test',
      'nat64.attacker.test',
      'metadata.attacker.test',
      'nowhere.attacker.test',
    ]) {
      const r = await save(`https://${host}/sub/1`);
      expect(r.statusCode, host).toBe(400);
      expect(r.json().error.message, host).toMatch(/public push service/);
    }
    for (const literal of [
      '198.18.0.1',
      '224.0.0.1',
      '[64:ff9b::7f00:1]',
      '[::127.0.0.1]',
      '[fec0::1]',
      '[::ffff:7f00:1]',
      '169.254.169.254',
    ]) {
      const r = await save(`https://${literal}/sub/1`);
      expect(r.statusCode, literal).toBe(400);
    }
    expect((await save('https://push.public.test/sub/ok')).statusCode).toBe(200);
  });

  it('a name that turns private after it was saved (DNS rebinding) gets no connection at delivery', async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    try {
      names.set('rebind.attacker.test', ['93.184.215.14']);
      u = await signIn(h); // a user with this one subscription only
      const saved = await save(`https://rebind.attacker.test:${port}/sub/r`);
      expect(saved.statusCode).toBe(200);
      names.set('rebind.attacker.test', ['127.0.0.1']);
      await call(
        h,
        'POST',
        '/_serverFn/updatePreferencesBearerSettings',
        { notifications: { email: false, push: true, sms: false } },
        { token: u.token },
      );
      const { db, jobs } = h.app.services;
      await db.transaction((tx) => notify(h, tx, [{ userId: u.id, kind: 'general', title: 'hello', body: 'rebinding' }]));
      await jobs.drain();
      expect(connections).toBe(0);
      const job = (
        (await db.execute(
          sql`SELECT status, last_error FROM jobs WHERE queue = 'notify.push' AND payload->>'subscriptionId' = ${saved.json().subscription.id}`,
        )) as unknown as {
          rows: { status: string; last_error: string }[];
        }
      ).rows[0];
      expect(job.status).not.toBe('done');
      expect(job.last_error).toMatch(/non-public/);
    } finally {
      server.close();
    }
  });
});

describe("with the machine's own DNS", () => {
  it('a host name that resolves to loopback is refused', async () => {
    const name = os.hostname().toLowerCase();
    const resolved = await lookup(name, { all: true }).catch(() => []);
    if (!resolved.length || resolved.some((a) => isPublicAddress(a.address))) return; // this machine's name is not loopback
    const h = await createHarness({ overrides: { resolver: systemResolver } });
    try {
      const u = await signIn(h);
      const r = await call(
        h,
        'POST',
        '/_serverFn/savePushSubscriptionBearerPush',
        { endpoint: `https://${name}:8443/sub`, ...keys },
        { token: u.token },
      );
      expect(r.statusCode).toBe(400);
    } finally {
      await h.close();
    }
  });
});
