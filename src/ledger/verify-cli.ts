import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { verifyLedger } from './verify.js';

// `npm run ledger:verify`: checks every ledger invariant on the configured database; non-zero exit on a breach.
const config = loadConfig(process.env);
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
await migrate(database);
const report = await verifyLedger(database.db);
for (const c of report.checked) console.log(`checked: ${c.invariant} (${c.count})`);
if (report.breaches.length) {
  for (const b of report.breaches) console.error(`BREACH ${b.invariant}: ${b.detail}`);
  await database.close();
  process.exit(1);
}
console.log('ledger OK: no breach');
await database.close();
