/**
 * What `npm start` prints once the sandbox listens (LOG_FORMAT=pretty): where to go and how to sign in. The demo
 * accounts are the ones `npm run seed` makes (scripts/seed/demo.ts; test/lib/banner.test.ts keeps the two the same).
 */
export const DEMO_SIGN_IN = {
  customers: ['bisi@demo.test', 'tunde@demo.test', 'ngozi@demo.test', 'chinedu@demo.test'],
  loginPin: '246810',
  transactionPin: '1357',
} as const;

/** The sandbox's banner, for the service at `url` (its public address, no trailing slash). */
export function sandboxBanner(opts: { url: string; operatorEmail: string }): string {
  const url = opts.url.replace(/\/$/, '');
  const rows: [string, string][] = [
    ['App', `${url}/`],
    ['Console', `${url}/console`],
    ['API docs', `${url}/docs   (OpenAPI: ${url}/api/openapi.json)`],
    ['', ''],
    ['Sign in', `any e-mail address; its sign-in code is at ${url}/sandbox/mailbox?to=<e-mail>`],
    ['', `the console's operator: ${opts.operatorEmail}`],
    ['Demo data', `npm run seed (in a second terminal): ${DEMO_SIGN_IN.customers.join(', ')} and the operator`],
    [
      '',
      `sign in with login PIN ${DEMO_SIGN_IN.loginPin} ("Sign in with login PIN"), pay with transaction PIN ${DEMO_SIGN_IN.transactionPin}`,
    ],
    ['', ''],
    ['Stop', 'Ctrl+C'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => (k || v ? `  ${k.padEnd(width)}  ${v}`.trimEnd() : ''));
  return `\n  The sandbox is ready.\n\n${lines.join('\n')}\n\n`;
}
