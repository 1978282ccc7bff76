import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { rows, type Database } from './client.js';
import { sha256 } from '../lib/crypto.js';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export function migrationFiles(): { name: string; text: string }[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(MIGRATIONS_DIR, name), 'utf8') }));
}

/**
 * Applies committed SQL migrations in file-name order, each in its own transaction, under an advisory lock
 * so several instances starting together apply each file once.
 */
export async function migrate(database: Database): Promise<string[]> {
  return database.withLock(727274, async (exec) => {
    await exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await exec(`SELECT name FROM schema_migrations`)).map((r) => String(r.name)));
    const applied: string[] = [];
    for (const file of migrationFiles()) {
      if (done.has(file.name)) continue;
      const checksum = sha256(file.text);
      try {
        await exec(
          `BEGIN;\n${file.text}\n;\nINSERT INTO schema_migrations (name, checksum) VALUES ('${file.name.replace(/'/g, "''")}', '${checksum}');\nCOMMIT;`,
        );
      } catch (err) {
        await exec('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${file.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file.name);
    }
    return applied;
  });
}

export async function pendingMigrations(database: Database): Promise<string[]> {
  const done = new Set((await rows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations`)).map((r) => r.name));
  return migrationFiles()
    .map((f) => f.name)
    .filter((n) => !done.has(n));
}
