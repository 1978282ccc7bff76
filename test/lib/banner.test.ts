import { describe, expect, it } from 'vitest';
import { SANDBOX_OPERATOR_EMAIL } from '../../src/config.js';
import { DEMO_SIGN_IN, sandboxBanner } from '../../src/lib/banner.js';
import { DEMO_LOGIN_PIN, DEMO_PEOPLE, DEMO_TRANSACTION_PIN } from '../../scripts/seed/demo.js';

describe("npm start's banner", () => {
  const banner = sandboxBanner({ url: 'http://localhost:3000', operatorEmail: SANDBOX_OPERATOR_EMAIL });

  it('names the app, the console and the API docs by their addresses, and how to stop', () => {
    expect(banner).toContain('http://localhost:3000/\n');
    expect(banner).toContain('http://localhost:3000/console');
    expect(banner).toContain('http://localhost:3000/docs');
    expect(banner).toContain('http://localhost:3000/api/openapi.json');
    expect(banner).toContain('Ctrl+C');
    expect(sandboxBanner({ url: 'https://sandbox.example.ng/', operatorEmail: 'op@x.test' })).toContain(
      'https://sandbox.example.ng/console',
    );
  });

  it('tells how to sign in: the sandbox mailbox, the operator, and the demo accounts npm run seed makes', () => {
    expect(banner).toContain('http://localhost:3000/sandbox/mailbox?to=<e-mail>');
    expect(banner).toContain(SANDBOX_OPERATOR_EMAIL);
    expect(banner).toContain('npm run seed');
    // The seed's own accounts and PINs (scripts/seed/demo.ts), so the banner cannot drift from what it makes.
    expect([...DEMO_SIGN_IN.customers]).toEqual(DEMO_PEOPLE.map((p) => p.email));
    expect(DEMO_SIGN_IN.loginPin).toBe(DEMO_LOGIN_PIN);
    expect(DEMO_SIGN_IN.transactionPin).toBe(DEMO_TRANSACTION_PIN);
    for (const email of DEMO_SIGN_IN.customers) expect(banner).toContain(email);
    expect(banner).toContain(`login PIN ${DEMO_LOGIN_PIN}`);
    expect(banner).toContain(`transaction PIN ${DEMO_TRANSACTION_PIN}`);
  });

  it('is short', () => {
    expect(banner.trim().split('\n').length).toBeLessThanOrEqual(14);
    expect(Math.max(...banner.split('\n').map((l) => l.length))).toBeLessThanOrEqual(140);
  });
});
