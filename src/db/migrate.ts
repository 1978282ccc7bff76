import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { rows, type Database } from './client.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.join(HERE, 'migrations');
/** Where a service kind keeps what is its own (src/modules/vtu/kinds/<kind>/), its tables' migrations among it. */
const KINDS_DIR = path.join(HERE, '../modules/vtu/kinds');

/**
 * The directories holding migrations: src/db/migrations, and a service kind's own `kinds/<kind>/migrations/` (a kind
 * that keeps tables of its own adds them in its folder: issue 32, a kind is one folder).
 */
export function migrationDirs(): string[] {
  const kinds = fs.existsSync(KINDS_DIR) ? fs.readdirSync(KINDS_DIR, { withFileTypes: true }) : [];
  const own = kinds
    .filter((d) => d.isDirectory())
    .map((d) => path.join(KINDS_DIR, d.name, 'migrations'))
    .filter((d) => fs.existsSync(d));
  return [MIGRATIONS_DIR, ...own];
}

/**
 * Every migration, from every directory, in file-name order (the numbering ranges of docs/architecture.md keep
 * the order meaningful across directories). Two files with one name are refused: `schema_migrations` is keyed by it.
 */
export function migrationFiles(): { name: string; text: string }[] {
  const where = new Map<string, string>();
  for (const dir of migrationDirs())
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
      const seen = where.get(name);
      if (seen) throw new Error(`two migrations are named ${name}: ${seen} and ${dir}`);
      where.set(name, dir);
    }
  return [...where.keys()].sort().map((name) => ({ name, text: fs.readFileSync(path.join(where.get(name)!, name), 'utf8') }));
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
      const checksum = createHash('sha256').update(file.text).digest('hex');
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
