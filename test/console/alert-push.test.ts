import http from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, freePort, signIn, type Harness, type TestUser } from '../helpers/harness.js';

/**
 * Issue 44: an operator turns on alerts on the console's browser ("Turn on alerts on this device": the console's
 * session saves the browser's push subscription, as the app does), and the operators' alerts are then pushed to it,
 * encrypted; an operator whose role the alert does not concern gets nothing there. Pushes are read back from a real
 * Web Push peer (web-push-testing decrypts what we send), as in test/security/push-sessions.test.ts.
 */
const require = createRequire(import.meta.url);
const PushTestingServer = require('web-push-testing/src/server.js');
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js');

let h: Harness;
let pushPort: number;
let pushServer: { _server: http.Server };
let admin: TestUser;
let support: TestUser;
const P = (name: string, suffix: string) => `/_serverFn/${name}${suffix}`;

async function pushPeer(path: string, body: unknown) {
  const res = await fetch(`http://localhost:${pushPort}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as { data: Record<string, unknown> } };
}

/** The console's browser: subscribed at the push peer with the service's key, saved with the operator's session. */
async function consoleBrowser(who: TestUser) {
  const publicKey = (await call(h, 'GET', P('getPushPublicKey', 'PublicPush'))).json().publicKey;
  const r = await pushPeer('/subscribe', { userVisibleOnly: 'true', applicationServerKey: publicKey });
  expect(r.status).toBe(200);
  const b = r.json.data as { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string };
  const saved = await call(h, 'POST', P('savePushSubscription', 'BearerPush'), { endpoint: b.endpoint, ...b.keys }, { token: who.token });
  expect(saved.statusCode, saved.body).toBe(200);
  return b;
}
const received = async (b: { clientHash: string }) =>
  ((await pushPeer('/get-notifications', { clientHash: b.clientHash })).json.data.messages as string[]).map(
    (m) => JSON.parse(m) as { kind: string; title: string; body: string; data?: Record<string, unknown> },
  );

beforeAll(async () => {
  pushPort = await freePort();
  pushServer = new PushTestingServer(new PushApiModel(), pushPort);
  (pushServer as unknown as { startServer(): void }).startServer();
  await new Promise<void>((resolve) => (pushServer._server.listening ? resolve() : pushServer._server.once('listening', () => resolve())));
  h = await createHarness({ env: { ADMIN_EMAILS: 'admin@example.com', OPERATOR_2FA: 'optional', ALERT_FLOAT_BELOW: '1000' } });
  admin = await signIn(h, 'admin@example.com');
  support = await signIn(h);
  const granted = await call(
    h,
    'POST',
    P('adminGrantRole', 'BearerAdmin'),
    { email: support.email, role: 'support' },
    { token: admin.token },
  );
  expect(granted.statusCode, granted.body).toBe(200);
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => pushServer?._server.close(r));
});

describe("operators' alerts pushed to the console's browser (issue 44)", () => {
  it('a low float is pushed to the browser an admin turned alerts on in, not to a support operator’s', async () => {
    const adminBrowser = await consoleBrowser(admin);
    const supportBrowser = await consoleBrowser(support);
    await h.app.services.jobs.tickCrons();
    await h.app.services.jobs.drain();
    const pushed = await received(adminBrowser);
    expect(pushed.map((m) => m.title).sort()).toEqual([
      'Low float: provider A at ₦0.00',
      'Low float: provider B at ₦0.00',
      'Low float: provider C at ₦0.00',
      'Low float: provider D at ₦0.00',
    ]);
    expect(pushed[0]).toMatchObject({ kind: 'operator_alert', data: { operation: 'adminFundProviderFloat' } });
    expect(pushed[0].body).toContain('/console/');
    expect(await received(supportBrowser)).toEqual([]);
  });
});
