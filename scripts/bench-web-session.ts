// The signed-in home for `npm run bench:web`: a customer made ready to buy through the sandbox API (so home shows
// itself instead of sending a brand-new account to the onboarding flow), and that customer's session put into the
// benchmark's Chromium the way the app keeps it: the HttpOnly refresh cookie plus the app's session hint in
// localStorage. Lighthouse then runs with disableStorageReset, and the app starts by refreshing from the cookie.
import { randomUUID } from 'node:crypto';
import puppeteer from 'puppeteer-core';

// A 16x16 PNG: the liveness frames the sandbox's identity simulator passes by default.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAGklEQVR4nGNkaGAgCTCRpnxUw6iGUQ1DSAMAQC4BEeR+zkgAAAAASUVORK5CYII=';

async function call(base: string, name: string, data: Record<string, unknown>, token?: string) {
  const res = await fetch(`${base}/_serverFn/${name}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-session-transport': 'cookie',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ data }),
  });
  const body = await res.json();
  if (!body.ok) throw new Error(`${name}: ${JSON.stringify(body)}`);
  return { body, cookies: res.headers.getSetCookie() };
}

async function mailedCode(base: string, email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const box = await (await fetch(`${base}/sandbox/mailbox?to=${encodeURIComponent(email)}`)).json();
    const code = box.items.map((m: { text: string }) => /(\d{6})/.exec(m.text)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no sign-in code for ${email}`);
}

/** Signs a new customer in, makes the account ready to buy (Tier 1, transaction PIN) and gives the browser the session. */
export async function signInBrowser(base: string, chromePort: number, screen = `${base}/`) {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
  await call(base, 'sendLoginOtpPublicAuth', { email });
  const signedIn = await call(base, 'verifyLoginOtpPublicAuth', { email, code: await mailedCode(base, email) });
  const token = signedIn.body.session.accessToken as string;
  const frames: string[] = [];
  for (let i = 0; i < 3; i++)
    frames.push(
      (await call(base, 'uploadKycFileBearerKYC', { fileName: `f${i}.png`, contentType: 'image/png', contentBase64: PNG }, token)).body
        .path,
    );
  await call(base, 'submitTier3KycBearerKYC', { frames }, token);
  // The first transaction PIN, right after the e-mailed code: no second code needed.
  await call(base, 'setTransactionPinFnBearerSettings', { pin: '1357' }, token);

  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/receipt/none`);
    const cdp = await page.createCDPSession();
    for (const header of signedIn.cookies) {
      const [pair, ...attrs] = header.split(';').map((s) => s.trim());
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      await cdp.send('Network.setCookie', { name, value, url: `${base}${path}`, path, httpOnly: true, sameSite: 'Strict' });
    }
    await page.evaluate(() => localStorage.setItem('vtu.session', '1'));
    // The customer has used the app before: the measured screen opened once, so the service worker is installed and
    // active, keeps the screen's code (a screen's chunks are cached as they are first loaded), and the service has
    // answered the screen's requests once, before Lighthouse measures. Without it the first measured run shared the
    // machine with the worker's install (it fetches and stores the shell) and with the service's first answers, and
    // fetched the screen's chunks over the network, and was the worst of the runs (docs/decisions.md).
    await page.goto(screen, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => !document.getElementById('splash'), { timeout: 30_000 });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.close();
  } finally {
    await browser.disconnect();
  }
}
