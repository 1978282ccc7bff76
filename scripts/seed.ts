// `npm run seed`: demo data for the sandbox that `npm start` is serving (SEED_URL, default http://localhost:3000).
// It talks to the running service over HTTP, so the embedded database is never opened twice. Safe to run again.
import process from 'node:process';
import { DEMO_TRANSACTION_PIN, SeedError, seedDemo } from './seed/demo.js';

const baseUrl = process.env.SEED_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
console.log(`Seeding the sandbox at ${baseUrl} ...`);
try {
  const r = await seedDemo({ baseUrl, log: (line) => console.log(line) });
  console.log(r.created.length ? `\nCreated ${r.created.length} things.` : '\nEverything was already in place; nothing changed.');
  console.log(`\nSign in at ${baseUrl}/ with "Sign in with login PIN" (every demo account uses login PIN ${r.operator.loginPin};`);
  console.log(`transaction PIN ${DEMO_TRANSACTION_PIN}), or with an e-mailed code read at ${baseUrl}/sandbox/mailbox?to=<e-mail>.\n`);
  const rows = [
    ['who', 'e-mail', 'KYC tier', 'balance (₦)', 'purchases'],
    ['operator', r.operator.email, '-', '-', '-'],
    ...r.people.map((p) => [
      `customer @${p.username}`,
      p.email,
      String(p.tier),
      p.balance.toLocaleString('en-NG', { minimumFractionDigits: 2 }),
      Object.entries(p.purchases)
        .map(([status, n]) => `${n} ${status}`)
        .join(', ') || 'none',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  console.log(
    `\nThe operator's token: POST ${baseUrl}/_serverFn/startPinLoginPublicAuth {"data":{"identifier":"${r.operator.email}","pin":"${r.operator.loginPin}"}}`,
  );
} catch (err) {
  console.error(err instanceof SeedError ? `seed: ${err.message}` : err);
  process.exit(1);
}
